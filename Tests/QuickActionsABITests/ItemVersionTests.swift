import CQuickActionsPlugin
import QuickActionsModel
import Testing

@testable import QuickActionsABI

/// qa_item grows by appending fields: an ABI 1.0 item (no `id`) still reads, and nothing past
/// its struct_size is touched; a 1.1 item's id comes through; a newer minor's larger item is
/// read as far as the fields known here.
@Suite struct ItemVersionTests {
    @Test func anABI10ItemReadsWithoutAnIdAndNothingPastItsSizeIsRead() throws {
        let arena = CArena()
        let full = ABIEncoder(arena: arena).item(ShortcutItem(type: "t", title: "T", id: "given"))
        let size = ABIDecoder.itemSizeOfABI10
        #expect(size == 64)
        // A 1.0 plugin's struct: exactly `size` bytes, then a poisoned byte where `id` would be.
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size + 8, alignment: 8)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 0xA5, count: size + 8)
        buffer.copyMemory(from: full, byteCount: size)
        buffer.storeBytes(of: size, as: Int.self)
        var decoder = ABIDecoder()
        let item = try withExtendedLifetime(arena) {
            try decoder.item(buffer.assumingMemoryBound(to: qa_item.self), label: "item 0")
        }
        #expect(item == ShortcutItem(type: "t", title: "T"))
    }

    @Test func anABI11ItemsIdComesThrough() throws {
        let arena = CArena()
        let encoded = ABIEncoder(arena: arena).item(ShortcutItem(type: "t", title: "T", id: "given"))
        #expect(encoded.pointee.struct_size == MemoryLayout<qa_item>.size)
        var decoder = ABIDecoder()
        let item = try withExtendedLifetime(arena) { try decoder.item(encoded, label: "item 0") }
        #expect(item.id == "given")
    }

    @Test func aNewerMinorsLargerItemIsReadUpToTheFieldsThisABIKnowsAndItsTailIgnored() throws {
        let arena = CArena()
        let expected = ShortcutItem(type: "t", title: "T", subtitle: "s", userInfo: ["k": .int(1)], id: "given")
        let known = MemoryLayout<qa_item>.size
        // A 1.9 plugin's item: this ABI's fields, then 32 bytes of poison a reader must not follow.
        let size = known + 32
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 0xA5, count: size)
        buffer.copyMemory(from: ABIEncoder(arena: arena).item(expected), byteCount: known)
        buffer.storeBytes(of: size, as: Int.self)
        var decoder = ABIDecoder()
        let item = try withExtendedLifetime(arena) {
            try decoder.item(buffer.assumingMemoryBound(to: qa_item.self), label: "item 0")
        }
        #expect(item == expected)
    }

    @Test func anItemSmallerThanABI10IsRefusedNamingBothSizes() {
        var raw = qa_item()
        raw.struct_size = 63
        #expect {
            var decoder = ABIDecoder()
            _ = try withUnsafePointer(to: &raw) { try decoder.item($0, label: "item 2") }
        } throws: { error in
            "\(error)".contains("item 2: struct_size 63 is smaller than ABI 1.0's qa_item (64 bytes)")
        }
    }
}
