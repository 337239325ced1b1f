import Glibc

/// Opens a plugin's library for loading after checking it and every folder
/// from the bundle down to it, before any of its code can run.
///
/// Each folder is opened with `O_DIRECTORY | O_NOFOLLOW` relative to the one
/// above it, and the library with `O_RDONLY | O_NOFOLLOW | O_CLOEXEC`; the
/// checks are made with `fstat` on those very descriptors, and the library is
/// later loaded through its descriptor (`/proc/self/fd/N`). So nothing can be
/// swapped between the check and the load: a symlink or a different file put
/// in place afterwards is not what gets loaded.
///
/// Rules, for the bundle folder, any folder below it on the way, and the
/// library: not a symlink; a folder or a regular file as expected; owned by
/// the user running the broker or by root; neither group- nor world-writable.
enum SecureLibraryFile {
    /// Returns an open descriptor of the checked library; the caller owns it. Both paths are
    /// standardised first (``FilePaths/standardized(_:)``: made absolute, `.` and `..` resolved
    /// without following links).
    static func open(library: String, bundle: String) throws(PluginLoadError) -> Int32 {
        let libraryPath = FilePaths.standardized(library)
        let bundlePath = FilePaths.standardized(bundle)
        let prefix = bundlePath.hasSuffix("/") ? bundlePath : bundlePath + "/"
        guard libraryPath.hasPrefix(prefix) else {
            throw .refused(library: libraryPath, reason: "it is not inside its bundle \(bundlePath)")
        }
        let components = libraryPath.dropFirst(prefix.count).split(separator: "/").map(String.init)
        guard let fileName = components.last, !components.contains("..") else {
            throw .refused(library: libraryPath, reason: "it is not inside its bundle \(bundlePath)")
        }

        var folder = try openFolder(at: AT_FDCWD, name: bundlePath, shownAs: bundlePath, library: libraryPath)
        defer { close(folder) }
        var folderPath = bundlePath
        for component in components.dropLast() {
            folderPath += "/" + component
            let next = try openFolder(at: folder, name: component, shownAs: folderPath, library: libraryPath)
            close(folder)
            folder = next
        }

        // A FIFO, socket or device is refused before it is opened (a FIFO
        // would block a plain open for ever); O_NONBLOCK covers one swapped
        // in between, and fstat below checks what was opened.
        var kind = stat()
        if fstatat(folder, fileName, &kind, AT_SYMLINK_NOFOLLOW) == 0, let name = Self.specialKind(kind.st_mode) {
            throw .refused(library: libraryPath, reason: "library \(libraryPath) is not a regular file but \(name)")
        }
        let fd = openat(folder, fileName, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            throw openError(errno, path: libraryPath, library: libraryPath, what: "library")
        }
        do throws(PluginLoadError) {
            var info = stat()
            guard fstat(fd, &info) == 0 else {
                throw PluginLoadError.notLoadable(library: libraryPath, reason: "fstat: \(describe(errno))")
            }
            guard info.st_mode & S_IFMT == S_IFREG else {
                let name = Self.specialKind(info.st_mode).map { " but \($0)" } ?? ""
                throw PluginLoadError.refused(library: libraryPath, reason: "library \(libraryPath) is not a regular file\(name)")
            }
            try checkOwnerAndMode(info, what: "library", path: libraryPath, library: libraryPath)
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    private static func openFolder(
        at parent: Int32, name: String, shownAs path: String, library: String
    ) throws(PluginLoadError) -> Int32 {
        let fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            throw openError(errno, path: path, library: library, what: "bundle folder")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw .notLoadable(library: library, reason: "fstat \(path): \(describe(code))")
        }
        do throws(PluginLoadError) {
            try checkOwnerAndMode(info, what: "bundle folder", path: path, library: library)
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    private static func checkOwnerAndMode(
        _ info: stat, what: String, path: String, library: String
    ) throws(PluginLoadError) {
        let user = geteuid()
        guard info.st_uid == user || info.st_uid == 0 else {
            throw .refused(
                library: library,
                reason: "\(what) \(path) is owned by uid \(info.st_uid), not by uid \(user) (the broker's user) or root")
        }
        let mode = info.st_mode & 0o7777
        if mode & S_IWOTH != 0 {
            throw .refused(library: library, reason: "\(what) \(path) is world-writable (mode \(octal(mode)))")
        }
        if mode & S_IWGRP != 0 {
            throw .refused(library: library, reason: "\(what) \(path) is group-writable (mode \(octal(mode)))")
        }
    }

    private static func openError(_ code: Int32, path: String, library: String, what: String) -> PluginLoadError {
        switch code {
        case ENOENT:
            return .fileMissing(library: library)
        case ELOOP:
            return .refused(library: library, reason: "\(what) \(path) is a symlink")
        case ENOTDIR:
            // O_DIRECTORY | O_NOFOLLOW on a symlink to a folder also ends here.
            var info = stat()
            if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
                return .refused(library: library, reason: "\(what) \(path) is a symlink")
            }
            return .refused(library: library, reason: "\(what) \(path) is not a folder")
        default:
            return .notLoadable(library: library, reason: "open \(path): \(describe(code))")
        }
    }

    /// "a FIFO", "a socket", … for a file that is neither regular, a folder
    /// nor a symlink; nil for those.
    static func specialKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: nil
        }
    }

    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    private static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
