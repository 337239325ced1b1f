import CQuickActionsHostSupport
import Glibc

/// A plugin library opened with `dlopen` through the descriptor that
/// ``SecureLibraryFile`` checked (`/proc/self/fd/N`, `RTLD_NOW | RTLD_LOCAL`).
///
/// The descriptor stays open as long as the library is mapped: glibc
/// recognises an already loaded library by the name it was opened with, and
/// if the number N were closed and reused for another plugin, `dlopen` of
/// the same `/proc/self/fd/N` would hand back the first library. So the
/// descriptor is closed only after a `dlclose`, and for a library that stays
/// loaded, never.
///
/// The owner decides the library's fate once: it stays loaded forever after
/// a successful init, or ``unloadAfterFailure()`` is called.
final class DynamicLibrary: @unchecked Sendable {
    // @unchecked: `handle` and `descriptor` are set once in init and only
    // read afterwards; dlsym is thread-safe.
    private let handle: UnsafeMutableRawPointer
    private let descriptor: Int32
    /// The library's real path, for messages.
    let path: String
    /// Whether loading the library registered it with the Swift runtime
    /// (see ``SwiftImageProbe``). Such a library is never closed: the runtime
    /// cannot forget it and would keep pointers into an unmapped image.
    let registersWithSwiftRuntime: Bool

    /// Loads the library open on `descriptor`, taking ownership of it (it is
    /// closed here if loading fails).
    init(descriptor: Int32, path: String) throws(PluginLoadError) {
        let procPath = "/proc/self/fd/\(descriptor)"
        let registers = SwiftImageProbe.registersWithSwiftRuntime(descriptor: descriptor)
        Self.loadRuntimeLibraries(neededBy: descriptor)
        _ = dlerror()
        guard let handle = dlopen(procPath, RTLD_NOW | RTLD_LOCAL) else {
            var reason = Self.lastError(replacing: procPath, with: path) ?? "dlopen failed without a message"
            // dlerror starts with the library's own path, which the error already names.
            if reason.hasPrefix(path + ": ") { reason.removeFirst(path.count + 2) }
            close(descriptor)
            throw .notLoadable(library: path, reason: reason)
        }
        self.handle = handle
        self.descriptor = descriptor
        self.path = path
        self.registersWithSwiftRuntime = registers
    }

    /// The folder this process's libswiftCore.so was loaded from (the toolchain's, or the one
    /// installed beside the broker), or nil for a process without the Swift runtime. Asked of the
    /// dynamic loader (its link map), not read from /proc/self/maps: a Swift plugin's launch
    /// reads no file and splits no text for it.
    static let runtimeFolder: String? = {
        guard let loaded = qa_loaded_library_path("libswiftCore.so") else { return nil }
        let path = String(cString: loaded)
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")), slash != path.utf8.startIndex else { return nil }
        return String(path[..<slash])
    }()

    /// Loads the Swift runtime libraries the library on `descriptor` needs and this process has
    /// not loaded, from ``runtimeFolder``: a plugin host links no Foundation at all, and a Swift
    /// plugin finds libFoundationEssentials.so (the SDK's) or libFoundation.so (and what they
    /// need) there, as it would have had the host loaded them at start. The plugin's own RUNPATH
    /// cannot be relied on: an `$ORIGIN` in it means /proc/self/fd, which it is loaded
    /// through. A library that fails to load here is left to the plugin's dlopen to report.
    static func loadRuntimeLibraries(neededBy descriptor: Int32) {
        guard let needed = SwiftImageProbe.neededLibraries(descriptor: descriptor) else { return }
        for name in needed where !name.isEmpty && !name.contains("/") {
            if let loaded = dlopen(name, RTLD_LAZY | RTLD_NOLOAD) {
                dlclose(loaded)
                continue
            }
            // Looked up once, and only for a library that needs something not loaded yet.
            guard let folder = runtimeFolder else { return }
            let path = folder + "/" + name
            guard access(path, F_OK) == 0 else { continue }
            // Never closed: a Swift runtime library stays loaded, as it would have from the start.
            _ = dlopen(path, RTLD_NOW | RTLD_GLOBAL)
        }
    }

    /// The address of an exported symbol, or nil.
    func symbol(named name: String) -> UnsafeMutableRawPointer? {
        _ = dlerror()
        return dlsym(handle, name)
    }

    /// After a failed load or init: closes the library and its descriptor,
    /// unless it registered with the Swift runtime (see
    /// ``registersWithSwiftRuntime``): that one stays mapped with its
    /// descriptor open. Returns whether it was closed.
    @discardableResult
    func unloadAfterFailure() -> Bool {
        guard !registersWithSwiftRuntime else { return false }
        dlclose(handle)
        close(descriptor)
        return true
    }

    /// `dlerror`'s text, with the `/proc/self/fd/N` name glibc knows the
    /// library by replaced by its real path.
    private static func lastError(replacing procPath: String, with path: String) -> String? {
        guard let message = dlerror() else { return nil }
        return replacing(procPath, with: path, in: String(cString: message))
    }

    /// `text` with every occurrence of `target` replaced by `replacement` (plain code points:
    /// nothing here needs Foundation's or the regex module's string search).
    static func replacing(_ target: String, with replacement: String, in text: String) -> String {
        let needle = Array(target.utf8)
        let haystack = Array(text.utf8)
        guard !needle.isEmpty, haystack.count >= needle.count else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(haystack.count)
        var index = 0
        while index < haystack.count {
            if index + needle.count <= haystack.count, haystack[index..<(index + needle.count)].elementsEqual(needle) {
                result += replacement.utf8
                index += needle.count
            } else {
                result.append(haystack[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
