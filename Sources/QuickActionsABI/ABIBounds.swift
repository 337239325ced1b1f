/// Hard bounds on what one call across the ABI may carry, so that hostile or
/// broken input (cycles, a DAG that unfolds into billions of values, an
/// absurd count) ends in an ``ABIDecodingError`` instead of a hang, a stack
/// overflow or an allocation failure. They are far above the broker's own
/// limits (`ItemLimits`), which the broker checks on the decoded values. The
/// host table hands both to the plugin at run time (`qa_limits`: `call_max_*`
/// are these, `max_*` the broker's), where the header documents them.
package struct ABIBounds: Sendable, Hashable {
    /// Deepest nesting of containers, the user info dictionary itself counting as 1.
    package var maxDepth: Int
    /// Values (scalars and containers) in one call, over all items.
    package var maxValues: Int
    /// Bytes of strings and byte arrays in one call, over all items.
    package var maxPayloadBytes: Int
    /// Items in one `set_dynamic_items` call.
    package var maxItems: Int

    package init(maxDepth: Int = 64, maxValues: Int = 100_000, maxPayloadBytes: Int = 16 << 20, maxItems: Int = 4096) {
        self.maxDepth = maxDepth
        self.maxValues = maxValues
        self.maxPayloadBytes = maxPayloadBytes
        self.maxItems = maxItems
    }
}
