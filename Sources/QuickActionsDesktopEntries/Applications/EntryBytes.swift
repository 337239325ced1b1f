import Glibc

/// Reads an installed entry's bytes defensively: only a regular file (never a FIFO, a device
/// or a folder; opened without blocking, checked after opening), at most
/// ``DesktopEntryParser/maximumSize`` bytes, symbolic links followed (packages link entries).
enum EntryBytes {
    /// Why a file was not read.
    struct Refusal: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    static func read(_ path: String) -> Result<[UInt8], Refusal> {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return .failure(Refusal(description: "cannot be opened: \(String(cString: strerror(errno)))")) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            return .failure(Refusal(description: "cannot be examined: \(String(cString: strerror(errno)))"))
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else { return .failure(Refusal(description: "is not a regular file")) }
        let limit = DesktopEntryParser.maximumSize
        guard Int(status.st_size) <= limit else {
            return .failure(Refusal(description: "has \(status.st_size) bytes, more than the \(limit) a desktop entry may have"))
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(status.st_size))
        // The size fstat gave and a byte more (to see the end at once), 64 KiB at most: a
        // zeroed 64 KiB buffer per file cost more than parsing a small entry.
        var buffer = [UInt8](repeating: 0, count: min(max(Int(status.st_size) + 1, 4096), 64 * 1024))
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return .failure(Refusal(description: "cannot be read: \(String(cString: strerror(errno)))")) }
            if count == 0 { break }
            bytes += buffer[0..<count]
            // A file that grows while it is read is held to the same limit.
            if bytes.count > limit {
                return .failure(Refusal(description: "has more than the \(limit) bytes a desktop entry may have"))
            }
        }
        return .success(bytes)
    }
}
