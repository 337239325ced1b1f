#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import QuickActionsModel

extension IconTable {
    /// What D-Bus clients get for `icon`: a freedesktop icon name, or the absolute path of a
    /// regular file inside the bundle folder at `bundlePath` (QuickActionsBundles adds the same
    /// taking the bundle's URL).
    ///
    /// Plain paths and POSIX calls only: the plugin host links this module without Foundation.
    ///
    /// - `.type` maps through the table.
    /// - `.symbol` maps through the table, else passes through; a name that is empty, holds a `/`
    ///   (a client would take it for a path) or a control character is refused.
    /// - `.file` is a path relative to the bundle. It is refused when it is empty, absolute, has a
    ///   `..` component, or, once symbolic links are resolved with `realpath`, lies outside the
    ///   bundle. A name without an extension that does not exist is tried with `.png` and `.svg`
    ///   (as `CFBundleIconFile` allows). The returned path is the resolved one.
    /// - Throws: `IconError` naming the path or name at fault.
    public static func resolve(_ icon: ShortcutIcon, bundlePath: String) throws(IconError) -> String {
        switch icon {
        case .type(let type):
            return name(for: type)
        case .symbol(let symbol):
            if symbol.isEmpty { throw .emptyName }
            if symbol.contains("/") { throw .invalidName(symbol, reason: "contains '/'") }
            if symbol.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                throw .invalidName(symbol, reason: "contains a control character")
            }
            return name(forSymbol: symbol)
        case .file(let path):
            return try resolveFile(path, bundlePath: bundlePath)
        }
    }

    private static func resolveFile(_ path: String, bundlePath given: String) throws(IconError) -> String {
        if path.isEmpty { throw .emptyName }
        if path.hasPrefix("/") { throw .absolutePath(path) }
        if path.split(separator: "/").contains("..") { throw .parentReference(path) }
        if path.unicodeScalars.contains(where: { $0.value == 0 }) {
            throw .invalidName(path, reason: "contains a NUL character")
        }
        // As `URL(fileURLWithPath:).path` gave it: without a trailing `/` (but "/" itself).
        var bundlePath = given
        while bundlePath.count > 1, bundlePath.hasSuffix("/") { bundlePath.removeLast() }
        guard let realBundle = realPath(bundlePath) else {
            throw .missing(path: bundlePath, reason: String(cString: strerror(resolverErrno())))
        }
        let candidate = bundlePath + "/" + path
        var candidates = [candidate]
        if let last = path.split(separator: "/").last, !last.contains(".") {
            candidates += [candidate + ".png", candidate + ".svg"]
        }
        var firstError: Int32 = ENOENT
        for (number, attempt) in candidates.enumerated() {
            guard let real = realPath(attempt) else {
                if number == 0 { firstError = resolverErrno() }
                continue
            }
            guard real.hasPrefix(realBundle + "/") else {
                throw .escapesBundle(path: path, resolved: real)
            }
            var status = stat()
            guard stat(real, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
                throw .notARegularFile(path: real)
            }
            return real
        }
        throw .missing(path: candidate, reason: String(cString: strerror(firstError)))
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

#if canImport(Glibc)
@inline(__always) private func resolverErrno() -> Int32 { Glibc.errno }
#else
@inline(__always) private func resolverErrno() -> Int32 { Darwin.errno }
#endif

/// Why an icon could not be resolved; each case names the path or name at fault.
public enum IconError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An empty icon name or file path.
    case emptyName
    /// A symbol name or file path with a character it may not have.
    case invalidName(String, reason: String)
    /// An absolute icon file path: icon files must be inside the bundle.
    case absolutePath(String)
    /// An icon file path with a `..` component.
    case parentReference(String)
    /// The path resolves (through symbolic links) to `resolved`, outside the bundle.
    case escapesBundle(path: String, resolved: String)
    /// The file (or the bundle) does not exist or cannot be resolved.
    case missing(path: String, reason: String)
    /// The path names a directory or another non-regular file.
    case notARegularFile(path: String)

    public var description: String {
        switch self {
        case .emptyName:
            return "the icon name is empty"
        case .invalidName(let name, let reason):
            return "icon name \(name.quotedForMessage) \(reason)"
        case .absolutePath(let path):
            return "icon file \(path.quotedForMessage) is an absolute path; icon files must be inside the bundle"
        case .parentReference(let path):
            return "icon file \(path.quotedForMessage) has a '..' component; icon files must be inside the bundle"
        case .escapesBundle(let path, let resolved):
            return "icon file \(path.quotedForMessage) resolves to \(resolved.quotedForMessage), outside the bundle"
        case .missing(let path, let reason):
            return "icon file \(path.quotedForMessage): \(reason)"
        case .notARegularFile(let path):
            return "icon file \(path.quotedForMessage) is not a regular file"
        }
    }
}
