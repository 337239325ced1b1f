import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file operations of the dynamic-item store, on POSIX calls so that every step (create,
/// write, fsync, rename, fsync of the folder) is explicit and every failure carries its errno.
enum StateFileSystem {
    /// Creates `path` and any missing parent with mode 0700; existing folders are left as they are.
    static func makeDirectory(_ path: String) throws(SystemCallError) {
        // The common case in one call: the folder is there (EEXIST), or only it was missing.
        // Anything else takes the walk below, which makes the missing parents and names the
        // component at fault.
        if mkdir(path, 0o700) == 0 { return }
        if currentErrno() == EEXIST { return }
        var prefix = ""
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) == -1 {
                let error = currentErrno()
                if error == EEXIST { continue }
                throw SystemCallError(call: "mkdir", path: prefix, errno: error)
            }
        }
    }

    /// Writes `bytes` to a new file at `path` (mode 0600, replacing a stale one) and fsyncs it,
    /// unless `sync` is false (for records whose loss after a power cut is harmless).
    /// Opened `O_NONBLOCK | O_NOFOLLOW`: a FIFO left at `path` fails at once (ENXIO) instead of
    /// waiting for a reader; anything but a regular file is refused (EINVAL) before a byte is
    /// written.
    static func writeSynced(_ bytes: [UInt8], to path: String, sync: Bool = true) throws(SystemCallError) {
        let descriptor = try systemCall("open", path) {
            open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0o600)
        }
        defer { close(descriptor) }
        var status = stat()
        try systemCall("fstat", path) { fstat(descriptor, &status) }
        if status.st_mode & S_IFMT != S_IFREG { throw SystemCallError(call: "open", path: path, errno: EINVAL) }
        var written = 0
        while written < bytes.count {
            written += try systemCall("write", path) {
                bytes.withUnsafeBytes { buffer in
                    write(descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written)
                }
            }
        }
        if sync { try systemCall("fsync", path) { fsync(descriptor) } }
    }

    static func renameFile(_ from: String, to: String) throws(SystemCallError) {
        try systemCall("rename", from) { rename(from, to) }
    }

    /// Removes `path`; true when it existed.
    @discardableResult
    static func removeFile(_ path: String) throws(SystemCallError) -> Bool {
        if unlink(path) == 0 { return true }
        let error = currentErrno()
        if error == ENOENT { return false }
        throw SystemCallError(call: "unlink", path: path, errno: error)
    }

    /// Makes a rename or unlink in `directory` durable.
    static func syncDirectory(_ directory: String) throws(SystemCallError) {
        let descriptor = try systemCall("open", directory) { open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { close(descriptor) }
        try systemCall("fsync", directory) { fsync(descriptor) }
    }

    static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// The current time in UTC as `20240501T120000Z`, for names of files moved aside.
    static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }
}
