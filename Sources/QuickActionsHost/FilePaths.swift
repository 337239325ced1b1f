import Glibc

/// File paths as plain strings, for a host that links no Foundation: what the loader did with
/// `URL.standardizedFileURL.path` and `FileManager.createDirectory`, on POSIX calls.
enum FilePaths {
    /// `path` made absolute (against the working directory when relative) with its `.` and `..`
    /// components resolved lexically and repeated or trailing `/` dropped, as
    /// `URL(fileURLWithPath:).standardizedFileURL.path` gives it: symbolic links are not
    /// followed (`/a/link/..` is `/a`), and `..` above the root stays at the root.
    static func standardized(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : workingDirectory() + "/" + path
        var components: [Substring] = []
        for component in absolute.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".":
                continue
            case "..":
                if !components.isEmpty { components.removeLast() }
            default:
                components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }

    /// The working directory, or "/" when it cannot be read (it was removed, or is longer than
    /// the kernel will say).
    static func workingDirectory() -> String {
        guard let buffer = getcwd(nil, 0) else { return "/" }
        defer { free(buffer) }
        return String(cString: buffer)
    }

    /// Creates the folder `path` and every missing folder above it, each one created with mode
    /// `mode` exactly (set again with `chmod`, so the umask does not narrow it), as
    /// `FileManager.createDirectory(withIntermediateDirectories: true, attributes:
    /// [.posixPermissions: mode])` did. Folders that exist already (or symbolic links to
    /// folders) are left as they are.
    ///
    /// - Throws: ``DirectoryCreationError`` naming the folder that could not be made and why
    ///   (`EEXIST` when `path` itself is something other than a folder, `ENOTDIR` when a file
    ///   stands where a folder above it should be).
    static func createDirectories(_ path: String, mode: mode_t) throws(DirectoryCreationError) {
        let absolute = path.hasPrefix("/")
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        guard !components.isEmpty else { return }
        var prefix = absolute ? "" : "."
        for (index, component) in components.enumerated() {
            prefix += "/" + component
            let isLast = index == components.count - 1
            if component == "." || component == ".." { continue }
            if mkdir(prefix, mode) == 0 {
                guard chmod(prefix, mode) == 0 else { throw DirectoryCreationError(path: isLast ? path : prefix, code: errno) }
                continue
            }
            let code = errno
            guard code == EEXIST else { throw DirectoryCreationError(path: isLast ? path : prefix, code: code) }
            // Something is there: a folder (through a symlink too) goes on; anything else is
            // the caller's problem only when it is the folder asked for, else the next mkdir
            // below it says ENOTDIR.
            if isLast {
                var info = stat()
                guard stat(prefix, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                    throw DirectoryCreationError(path: path, code: EEXIST)
                }
            }
        }
    }
}

/// A folder ``FilePaths/createDirectories(_:mode:)`` could not make, with the errno why.
struct DirectoryCreationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The folder that could not be made: the one asked for, as it was given, or one above it.
    let path: String
    let code: Int32

    init(path: String, code: Int32) {
        self.path = path
        self.code = code
    }

    /// strerror's words, preceded by ``path`` unless it is `requested` (a log line that
    /// names the folder already need not say it twice).
    func reason(creating requested: String) -> String {
        let text = String(cString: strerror(code))
        return path == requested ? text : path + ": " + text
    }

    var description: String { path + ": " + String(cString: strerror(code)) }
}
