/// Reading a struct of the ABI that starts with its `struct_size` (`qa_plugin`,
/// `qa_item`, `qa_host`, `qa_limits`) as the header's evolution rules require:
/// never past its `struct_size`, and never past the fields this code knows.
///
/// A struct from an older minor is shorter: the fields it lacks read as zero
/// (NULL). One from a newer minor is longer: what lies past the fields known
/// here is not read at all.
package enum SizedStruct {
    /// The `struct_size` a struct starts with; a `size_t` past `Int.max` reads
    /// as `Int.max` (a struct larger than anything known: read as far as known).
    package static func size(at pointer: UnsafeRawPointer) -> Int {
        Int(clamping: pointer.load(as: UInt.self))
    }

    /// `blank` with its first `min(size, MemoryLayout<T>.size)` bytes
    /// replaced by those at `pointer`. `size` must have been checked to be
    /// at least the struct's ABI 1.0 size by the caller.
    package static func copy<T>(from pointer: UnsafeRawPointer, size: Int, over blank: T) -> T {
        var value = blank
        withUnsafeMutableBytes(of: &value) { target in
            let count = max(0, min(size, target.count))
            target.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: count))
        }
        return value
    }
}
