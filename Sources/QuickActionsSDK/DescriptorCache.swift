import Locking
import CQuickActionsPlugin
import QuickActionsABI

/// Descriptors by plugin type, so the entry returns the same one every time.
final class DescriptorCache: Sendable {
    private let descriptors = Locked<[ObjectIdentifier: Descriptor]>([:])

    func descriptor(
        for type: ObjectIdentifier, build: () -> UnsafePointer<qa_plugin>
    ) -> UnsafePointer<qa_plugin> {
        descriptors.withLock { table in
            if let existing = table[type] {
                return existing.pointer
            }
            let made = build()
            table[type] = Descriptor(pointer: made)
            return made
        }
    }
}

/// A descriptor's address.
private struct Descriptor: @unchecked Sendable {
    // @unchecked: the descriptor is written once before it is shared and never freed or changed.
    let pointer: UnsafePointer<qa_plugin>
}
