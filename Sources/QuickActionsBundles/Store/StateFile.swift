#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Small state files of the broker other than the item store (the crash counts, the crash
/// journal): read without ever blocking, and moved aside when unusable, as the store does.
public enum StateFile {
    /// What `read` found.
    public enum Reading: Sendable {
        case missing
        case contents([UInt8])
        /// Not usable: `reason` says why (not a regular file, too large, a symbolic link, …).
        /// `movable` is false for a failure of the system (EIO, EMFILE), which may pass.
        case unusable(reason: String, movable: Bool)
    }

    /// Reads `path` whole: opened with `O_NONBLOCK | O_NOFOLLOW`, checked with `fstat` (a FIFO,
    /// device, folder or symbolic link is refused at once), at most `limit` bytes.
    public static func read(_ path: String, limit: Int) -> Reading {
        do throws(RegularFile.Failure) {
            guard let contents = try RegularFile.contents(of: path, limit: limit, followSymlinks: false) else {
                return .missing
            }
            return .contents(contents.bytes)
        } catch {
            switch error {
            case .system(let failure) where failure.errno == ELOOP:
                return .unusable(reason: "a symbolic link (state files are never followed)", movable: true)
            case .system:
                return .unusable(reason: error.reason, movable: false)
            case .notRegular, .tooLarge:
                return .unusable(reason: error.reason, movable: true)
            }
        }
    }

    /// Renames `path` to `<path>.corrupt-<UTC time>` (never over an earlier one).
    /// - Returns: the new path.
    public static func moveAside(_ path: String) throws(SystemCallError) -> String {
        var target = path + ".corrupt-" + StateFileSystem.timestamp()
        var suffix = 1
        while StateFileSystem.exists(target) {
            suffix += 1
            target = path + ".corrupt-" + StateFileSystem.timestamp() + "-\(suffix)"
        }
        try StateFileSystem.renameFile(path, to: target)
        // The rename is durable once its folder is synced; a folder that cannot be synced
        // (read-only) still has the file moved.
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        try? StateFileSystem.syncDirectory(folder.isEmpty ? "/" : folder)
        return target
    }

    /// Makes `directory` (and missing parents, mode 0700) and checks that files can be created
    /// in it, by creating and removing a probe file.
    /// - Returns: nil when it is usable, else why not (naming the path and the failed call).
    public static func prepareDirectory(_ directory: String) -> String? {
        do throws(SystemCallError) {
            try StateFileSystem.makeDirectory(directory)
            var status = stat()
            try systemCall("stat", directory) { stat(directory, &status) }
            if status.st_mode & S_IFMT != S_IFDIR { return "\(directory) is not a folder" }
            let probe = directory + "/.write-probe-\(getpid())"
            try StateFileSystem.writeSynced([], to: probe)
            try StateFileSystem.removeFile(probe)
            return nil
        } catch {
            if error.errno == EEXIST || error.errno == ENOTDIR { return "\(error.path) is not a folder" }
            return "\(error)"
        }
    }
}
