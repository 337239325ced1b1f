import Foundation
import Glibc

/// Writes a file so that a reader sees the old content or the new, never a part: a temporary
/// file in the same folder, written, `fsync`ed, renamed over the target, then the folder
/// `fsync`ed so the rename survives a crash. Writes nothing when the content is already there.
public enum AtomicFile {
    public struct WriteError: Error, Equatable, CustomStringConvertible {
        public let path: String
        public let operation: String
        public let errno: Int32

        public var description: String {
            "\(operation) \(path): \(String(cString: strerror(errno)))"
        }
    }

    /// Writes `text` to `path` (mode 0644) unless the file already holds exactly it.
    /// - Parameter temporaryFolder: where the temporary file is made, on the same file system
    ///   (default: `path`'s folder). A subfolder keeps the temporary file's events out of the
    ///   folder desktops watch, so they see one change per write: the rename.
    /// - Returns: true when the file was written, false when it already held `text`.
    @discardableResult
    public static func write(_ text: String, to path: String, temporaryFolder: String? = nil) throws(WriteError) -> Bool {
        let bytes = Array(text.utf8)
        if let current = read(path), current == bytes { return false }
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let scratch = temporaryFolder ?? folder
        if let temporaryFolder { try makeFolder(temporaryFolder) }
        // A dot name without the .desktop suffix: menus reading the folder ignore it.
        var template = Array("\(scratch)/.\(name).qa-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard fd >= 0 else { throw WriteError(path: scratch, operation: "creating a temporary file in", errno: errno) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var committed = false
        defer {
            if !committed { unlink(temporary) }
        }
        do {
            defer { close(fd) }
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { buffer in
                    buffer.baseAddress.map { Glibc.write(fd, $0 + offset, buffer.count - offset) } ?? 0
                }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw WriteError(path: temporary, operation: "writing", errno: errno)
                }
                offset += written
            }
            guard fchmod(fd, 0o644) == 0 else { throw WriteError(path: temporary, operation: "setting the mode of", errno: errno) }
            guard fsync(fd) == 0 else { throw WriteError(path: temporary, operation: "fsync of", errno: errno) }
        }
        guard rename(temporary, path) == 0 else { throw WriteError(path: path, operation: "renaming over", errno: errno) }
        committed = true
        try syncFolder(folder)
        return true
    }

    /// Removes `path` and `fsync`s its folder; false when there was no file.
    @discardableResult
    public static func remove(_ path: String) throws(WriteError) -> Bool {
        guard unlink(path) == 0 else {
            if errno == ENOENT { return false }
            throw WriteError(path: path, operation: "removing", errno: errno)
        }
        try syncFolder((path as NSString).deletingLastPathComponent)
        return true
    }

    /// The file's bytes, or nil when it cannot be read (absent, a folder, unreadable, a
    /// symbolic link unless `followingSymlinks`) or is bigger than a desktop entry may be.
    public static func read(_ path: String, followingSymlinks: Bool = false) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | (followingSymlinks ? 0 : O_NOFOLLOW))
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
              Int(status.st_size) <= DesktopEntryParser.maximumSize
        else { return nil }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            bytes += buffer[0..<count]
            if bytes.count > DesktopEntryParser.maximumSize { return nil }
        }
        return bytes
    }

    /// Creates `path` and its parents (mode 0755) when missing.
    public static func makeFolder(_ path: String) throws(WriteError) {
        if DataDirectories.isFolder(path) { return }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty && parent != path { try makeFolder(parent) }
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw WriteError(path: path, operation: "creating the folder", errno: errno)
        }
    }

    private static func syncFolder(_ folder: String) throws(WriteError) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw WriteError(path: folder, operation: "opening the folder", errno: errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw WriteError(path: folder, operation: "fsync of the folder", errno: errno) }
    }
}
