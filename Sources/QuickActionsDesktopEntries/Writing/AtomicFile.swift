import CFileExchange
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
        let temporary = try temporaryFile(holding: bytes, for: path, in: temporaryFolder)
        guard rename(temporary, path) == 0 else {
            let error = WriteError(path: path, operation: "renaming over", errno: errno)
            unlink(temporary)
            throw error
        }
        try syncFolder(folder(of: path))
        return true
    }

    /// Replaces `path` with `bytes` whole (a temporary file beside it, renamed over it), for a
    /// file only we write (a cache).
    static func replace(_ path: String, with bytes: [UInt8]) throws(WriteError) {
        let temporary = try temporaryFile(holding: bytes, for: path, in: nil)
        guard rename(temporary, path) == 0 else {
            let error = WriteError(path: path, operation: "renaming over", errno: errno)
            unlink(temporary)
            throw error
        }
    }

    /// What a write or removal made only if the file still held what its caller read found.
    public enum Outcome: Equatable, Sendable {
        /// Written, or removed.
        case done
        /// Nothing to do: the file already holds the text, or is already gone.
        case unchanged
        /// The file is no longer what the caller read (saved, created or removed by someone
        /// else since): left as it is now.
        case changedMeanwhile
    }

    /// Writes `text` to `path` only if the file there still holds `expected` (nil: no file),
    /// the bytes the caller read to decide it may. The kernel makes the check and the
    /// replacement one step: with no file expected, the rename refuses to replace one
    /// (RENAME_NOREPLACE, else link(2)); otherwise the new file and the old swap names
    /// (RENAME_EXCHANGE), the old is read where the new one was made, and if it is not
    /// `expected` (an edit saved meanwhile) they swap back, so the edit stays. Only a write
    /// into the old file itself, in the microseconds between the two swaps, could be lost. A
    /// file system that cannot exchange gets the check just before a plain rename.
    public static func write(
        _ text: String, to path: String, temporaryFolder: String? = nil, ifStill expected: [UInt8]?
    ) throws(WriteError) -> Outcome {
        let bytes = Array(text.utf8)
        if expected == bytes { return .unchanged }
        let temporary = try temporaryFile(holding: bytes, for: path, in: temporaryFolder)
        var keepTemporary = false
        defer { if !keepTemporary { unlink(temporary) } }
        guard let expected else {
            switch try renameWithoutReplacing(temporary, to: path) {
            case true:
                keepTemporary = true  // It is `path` now.
                try syncFolder(folder(of: path))
                return .done
            case false:
                return .changedMeanwhile
            }
        }
        guard qa_rename_exchange(temporary, path) == 0 else {
            switch errno {
            case ENOENT:
                return .changedMeanwhile  // Removed since it was read.
            case EINVAL, ENOSYS, ENOTSUP:
                guard read(path) == expected else { return .changedMeanwhile }
                guard rename(temporary, path) == 0 else {
                    throw WriteError(path: path, operation: "renaming over", errno: errno)
                }
                keepTemporary = true
                try syncFolder(folder(of: path))
                return .done
            default:
                throw WriteError(path: path, operation: "exchanging a new file with", errno: errno)
            }
        }
        // `temporary` now names what was at `path`.
        if read(temporary) == expected {
            try syncFolder(folder(of: path))
            return .done  // The old file goes with the temporary name.
        }
        guard qa_rename_exchange(temporary, path) == 0 else {
            // Someone removed `path` (ours, for an instant) between the swaps: their file goes
            // back unless a new one took the name meanwhile.
            let exchangeError = errno
            keepTemporary = true
            if (try? renameWithoutReplacing(temporary, to: path)) == true { return .changedMeanwhile }
            throw WriteError(path: temporary, operation: "restoring \(path) from", errno: exchangeError)
        }
        return .changedMeanwhile
    }

    /// Removes `path` only if it still holds `expected`, the bytes its caller read to decide
    /// it may: the file is first renamed into `temporaryFolder` (one step: whatever is at
    /// `path` then is what is judged), read there, and removed if it is `expected`; anything
    /// else goes back to `path` (or, if a new file took the name meanwhile, beside it as
    /// `.NAME.qa-kept-XXXXXX`, hidden from menus and never removed by us).
    public static func remove(_ path: String, temporaryFolder: String? = nil, ifStill expected: [UInt8])
        throws(WriteError) -> Outcome {
        let temporary = try temporaryFile(holding: [], for: path, in: temporaryFolder)
        guard rename(path, temporary) == 0 else {
            let error = errno
            unlink(temporary)
            if error == ENOENT { return .unchanged }
            throw WriteError(path: path, operation: "moving aside", errno: error)
        }
        if read(temporary) == expected {
            unlink(temporary)
            try syncFolder(folder(of: path))
            return .done
        }
        if try renameWithoutReplacing(temporary, to: path) { return .changedMeanwhile }
        let kept = try temporaryFile(holding: [], for: path, in: nil, infix: "qa-kept")
        guard rename(temporary, kept) == 0 else {
            throw WriteError(path: temporary, operation: "keeping \(path) from", errno: errno)
        }
        return .changedMeanwhile
    }

    /// Puts a file a crash left under a temporary name back at `path`, unless a file has that
    /// name now (false then).
    static func restore(_ temporary: String, to path: String) throws(WriteError) -> Bool {
        guard try renameWithoutReplacing(temporary, to: path) else { return false }
        try syncFolder(folder(of: path))
        return true
    }

    /// The name a temporary file was made for: ".NAME.qa-XXXXXX" (or ".NAME.qa-kept-XXXXXX")
    /// is NAME's; nil for any other name.
    static func originalName(ofTemporary name: String) -> String? {
        guard name.hasPrefix("."), let suffix = name.range(of: ".qa-", options: .backwards) else { return nil }
        var original = String(name[name.index(after: name.startIndex)..<suffix.lowerBound])
        if original.hasSuffix(".qa-kept") { original.removeLast(".qa-kept".count) }
        return original.isEmpty || original.contains("/") ? nil : original
    }

    /// Renames `from` to `to` unless `to` exists (false then), in one step.
    private static func renameWithoutReplacing(_ from: String, to: String) throws(WriteError) -> Bool {
        if qa_rename_no_replace(from, to) == 0 { return true }
        switch errno {
        case EEXIST:
            return false
        case EINVAL, ENOSYS, ENOTSUP:
            // link(2) never replaces either; then the old name goes.
            guard link(from, to) == 0 else {
                if errno == EEXIST { return false }
                throw WriteError(path: to, operation: "linking a new file as", errno: errno)
            }
            unlink(from)
            return true
        default:
            throw WriteError(path: to, operation: "renaming a new file to", errno: errno)
        }
    }

    /// A new file in `temporaryFolder` (default: `path`'s folder) holding `bytes`, mode 0644,
    /// `fsync`ed: its path. A dot name without the .desktop suffix, so menus reading the
    /// folder ignore it.
    private static func temporaryFile(
        holding bytes: [UInt8], for path: String, in temporaryFolder: String?, infix: String = "qa"
    ) throws(WriteError) -> String {
        let name = (path as NSString).lastPathComponent
        let scratch = temporaryFolder ?? folder(of: path)
        if let temporaryFolder { try makeFolder(temporaryFolder) }
        var template = Array("\(scratch)/.\(name).\(infix)-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard fd >= 0 else { throw WriteError(path: scratch, operation: "creating a temporary file in", errno: errno) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var done = false
        defer {
            close(fd)
            if !done { unlink(temporary) }
        }
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
        done = true
        return temporary
    }

    private static func folder(of path: String) -> String {
        (path as NSString).deletingLastPathComponent
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
