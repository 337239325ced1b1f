/// Why values handed across the C ABI could not be read: malformed input
/// from the other side (a NULL where a value is required, invalid UTF-8,
/// an unknown kind, a bad `struct_size`, a tree past ``ABIBounds``).
///
/// `message` names the value at fault with its path, for example
/// `item 1 ("c.item"): user info["b"]: unknown value kind 99`.
package struct ABIDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    package var message: String

    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}
