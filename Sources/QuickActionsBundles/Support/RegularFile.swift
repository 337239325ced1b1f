#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads whole regular files with a size limit, for the bundle reader and the store.
///
/// The file is opened non-blocking and checked with `fstat` before any read, so a FIFO or a
/// device put where a file should be is refused instead of blocking the caller.
enum RegularFile {
    /// What was read, and the `fstat` of the very file read.
    struct Contents {
        var bytes: [UInt8]
        var status: stat
    }

    enum Failure: Error {
        case system(SystemCallError)
        /// A directory, FIFO, socket or device.
        case notRegular
        /// Larger than the limit; `bytes` is the file's size.
        case tooLarge(bytes: Int)

        var reason: String {
            switch self {
            case .system(let error): return String(cString: strerror(error.errno))
            case .notRegular: return "not a regular file"
            case .tooLarge(let bytes): return "\(bytes) bytes is too large"
            }
        }
    }

    /// The file's contents, or nil when it does not exist.
    /// - Parameter followSymlinks: false opens with `O_NOFOLLOW` (a symbolic link is an error).
    static func contents(of path: String, limit: Int, followSymlinks: Bool) throws(Failure) -> Contents? {
        let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followSymlinks ? 0 : O_NOFOLLOW)
        let descriptor = open(path, flags)
        if descriptor == -1 {
            let error = currentErrno()
            if error == ENOENT { return nil }
            throw .system(SystemCallError(call: "open", path: path, errno: error))
        }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == -1 {
            throw .system(SystemCallError(call: "fstat", path: path, errno: currentErrno()))
        }
        if status.st_mode & S_IFMT != S_IFREG { throw .notRegular }
        if Int(status.st_size) > limit { throw .tooLarge(bytes: Int(status.st_size)) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(status.st_size))
        // One byte more than the size, so the read that sees the end usually needs no second buffer.
        var chunk = [UInt8](repeating: 0, count: min(64 * 1024, max(4096, Int(status.st_size) + 1)))
        while true {
            let count: Int
            do {
                count = try systemCall("read", path) {
                    chunk.withUnsafeMutableBytes { buffer in read(descriptor, buffer.baseAddress, buffer.count) }
                }
            } catch {
                throw .system(error)
            }
            if count == 0 { return Contents(bytes: bytes, status: status) }
            bytes += chunk[..<count]
            // The file grew after fstat: refuse rather than read without bound.
            if bytes.count > limit { throw .tooLarge(bytes: bytes.count) }
        }
    }
}
