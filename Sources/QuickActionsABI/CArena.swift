import Glibc

/// Owns the C memory of one call across the ABI: every string, array and
/// struct allocated through it is freed together when the arena is
/// deallocated. The header says such memory is valid only during the call,
/// so an arena lives exactly as long as the call it backs.
///
/// Not thread-safe; one arena belongs to one call on one thread.
package final class CArena {
    private var blocks: [UnsafeMutableRawPointer] = []

    package init() {}

    deinit {
        for block in blocks {
            free(block)
        }
    }

    /// A NUL-terminated copy of `text`.
    package func string(_ text: String) -> UnsafePointer<CChar> {
        let utf8 = text.utf8
        let count = utf8.count
        // calloc'd: the terminating NUL is already there.
        let buffer = allocate(CChar.self, count: count + 1)
        let copied = utf8.withContiguousStorageIfAvailable { source -> Bool in
            if let base = source.baseAddress { memcpy(buffer, base, count) }
            return true
        }
        if copied == nil {
            for (index, byte) in utf8.enumerated() {
                buffer[index] = CChar(bitPattern: byte)
            }
        }
        return UnsafePointer(buffer)
    }

    /// Uninitialised storage for `count` values of `T` (at least one, so the
    /// pointer is never NULL). `T` must be a trivial C type.
    package func allocate<T>(_: T.Type, count: Int) -> UnsafeMutablePointer<T> {
        let bytes = max(1, count) * MemoryLayout<T>.stride
        // Out of memory is not recoverable here and calloc of a few bytes does not fail in practice;
        // a failure still yields a clean trap rather than a NULL dereference.
        guard let block = calloc(1, bytes) else { preconditionFailure("out of memory allocating \(bytes) bytes") }
        blocks.append(block)
        return block.bindMemory(to: T.self, capacity: max(1, count))
    }
}
