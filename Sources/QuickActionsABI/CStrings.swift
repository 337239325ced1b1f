import Glibc

/// Helpers for the two directions of free text across the ABI: error buffers
/// the other side will read, and messages the other side wrote.
package enum CStrings {
    /// The longest message read from the other side; longer ones are cut.
    package static let maxMessageBytes = 64 * 1024

    /// Writes `text` NUL-terminated into `buffer` (of `size` bytes), cut at a
    /// UTF-8 character boundary if it does not fit. Does nothing when
    /// `buffer` is NULL or `size` is 0, as the header allows.
    package static func write(_ text: String, into buffer: UnsafeMutablePointer<CChar>?, size: Int) {
        guard let buffer, size > 0 else { return }
        var bytes = Array(text.utf8.prefix(size - 1))
        // Drop a partial character at the cut: continuation bytes are 0b10xxxxxx.
        if bytes.count < text.utf8.count {
            while let last = bytes.last, last & 0xC0 == 0x80 {
                bytes.removeLast()
            }
            if let last = bytes.last, last >= 0xC0 {
                bytes.removeLast()
            }
        }
        for (index, byte) in bytes.enumerated() {
            buffer[index] = CChar(bitPattern: byte)
        }
        buffer[bytes.count] = 0
    }

    /// Reads a message written by the other side: NULL gives nil, invalid
    /// UTF-8 is repaired with U+FFFD, and at most ``maxMessageBytes`` are read.
    package static func message(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        let length = strnlen(pointer, maxMessageBytes)
        let bytes = UnsafeRawBufferPointer(start: pointer, count: length).bindMemory(to: UInt8.self)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads a buffer the other side may have filled: up to its first NUL or its end.
    package static func message(inBuffer buffer: UnsafePointer<CChar>, size: Int) -> String {
        let length = strnlen(buffer, size)
        let bytes = UnsafeRawBufferPointer(start: buffer, count: length).bindMemory(to: UInt8.self)
        return String(decoding: bytes, as: UTF8.self)
    }
}
