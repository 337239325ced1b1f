import CQuickActionsPlugin
import Testing

/// Where every field of the versioned structs sits (LP64), as ABI 1.0 to 1.3 promise.
/// Only offsets are pinned, never a versioned struct's total size: the header promises to
/// append fields, so a larger struct is no break, a moved field is. (The same table is
/// checked at compile time in CQuickActionsPlugin/quickactions_plugin.c.)
@Suite struct ABILayoutTests {
    struct Field: Sendable, CustomStringConvertible {
        var name: String
        var offset: Int?
        var promised: Int
        var description: String { name }
    }

    static let fields: [Field] = [
        Field(name: "qa_plugin.struct_size", offset: MemoryLayout<qa_plugin>.offset(of: \.struct_size), promised: 0),
        Field(name: "qa_plugin.abi_major", offset: MemoryLayout<qa_plugin>.offset(of: \.abi_major), promised: 8),
        Field(name: "qa_plugin.abi_minor", offset: MemoryLayout<qa_plugin>.offset(of: \.abi_minor), promised: 12),
        Field(name: "qa_plugin.name", offset: MemoryLayout<qa_plugin>.offset(of: \.name), promised: 16),
        Field(name: "qa_plugin.init", offset: MemoryLayout<qa_plugin>.offset(of: \.`init`), promised: 24),
        Field(name: "qa_plugin.launch", offset: MemoryLayout<qa_plugin>.offset(of: \.launch), promised: 32),
        Field(name: "qa_plugin.perform", offset: MemoryLayout<qa_plugin>.offset(of: \.perform), promised: 40),
        Field(name: "qa_plugin.will_resign", offset: MemoryLayout<qa_plugin>.offset(of: \.will_resign), promised: 48),
        Field(name: "qa_host.struct_size", offset: MemoryLayout<qa_host>.offset(of: \.struct_size), promised: 0),
        Field(name: "qa_host.abi_major", offset: MemoryLayout<qa_host>.offset(of: \.abi_major), promised: 8),
        Field(name: "qa_host.abi_minor", offset: MemoryLayout<qa_host>.offset(of: \.abi_minor), promised: 12),
        Field(name: "qa_host.context", offset: MemoryLayout<qa_host>.offset(of: \.context), promised: 16),
        Field(name: "qa_host.set_dynamic_items", offset: MemoryLayout<qa_host>.offset(of: \.set_dynamic_items), promised: 24),
        Field(name: "qa_host.log", offset: MemoryLayout<qa_host>.offset(of: \.log), promised: 32),
        Field(name: "qa_host.app_id", offset: MemoryLayout<qa_host>.offset(of: \.app_id), promised: 40),
        Field(name: "qa_host.data_directory", offset: MemoryLayout<qa_host>.offset(of: \.data_directory), promised: 48),
        Field(name: "qa_host.complete", offset: MemoryLayout<qa_host>.offset(of: \.complete), promised: 56),
        Field(name: "qa_host.get_dynamic_items (1.1)", offset: MemoryLayout<qa_host>.offset(of: \.get_dynamic_items), promised: 64),
        Field(name: "qa_host.limits (1.2)", offset: MemoryLayout<qa_host>.offset(of: \.limits), promised: 72),
        Field(name: "qa_item.struct_size", offset: MemoryLayout<qa_item>.offset(of: \.struct_size), promised: 0),
        Field(name: "qa_item.type", offset: MemoryLayout<qa_item>.offset(of: \.type), promised: 8),
        Field(name: "qa_item.title", offset: MemoryLayout<qa_item>.offset(of: \.title), promised: 16),
        Field(name: "qa_item.subtitle", offset: MemoryLayout<qa_item>.offset(of: \.subtitle), promised: 24),
        Field(name: "qa_item.icon_kind", offset: MemoryLayout<qa_item>.offset(of: \.icon_kind), promised: 32),
        Field(name: "qa_item.icon", offset: MemoryLayout<qa_item>.offset(of: \.icon), promised: 40),
        Field(name: "qa_item.user_info", offset: MemoryLayout<qa_item>.offset(of: \.user_info), promised: 48),
        Field(name: "qa_item.id (1.1)", offset: MemoryLayout<qa_item>.offset(of: \.id), promised: 64),
        Field(name: "qa_request.struct_size", offset: MemoryLayout<qa_request>.offset(of: \.struct_size), promised: 0),
        Field(name: "qa_request.item", offset: MemoryLayout<qa_request>.offset(of: \.item), promised: 8),
        Field(name: "qa_request.resolved_icon", offset: MemoryLayout<qa_request>.offset(of: \.resolved_icon), promised: 16),
        Field(name: "qa_request.arguments", offset: MemoryLayout<qa_request>.offset(of: \.arguments), promised: 24),
        Field(name: "qa_request.activation_token", offset: MemoryLayout<qa_request>.offset(of: \.activation_token), promised: 40),
        Field(name: "qa_request.request_id (1.3)", offset: MemoryLayout<qa_request>.offset(of: \.request_id), promised: 48),
        Field(name: "qa_limits.struct_size (1.2)", offset: MemoryLayout<qa_limits>.offset(of: \.struct_size), promised: 0),
        Field(name: "qa_limits.max_items (1.2)", offset: MemoryLayout<qa_limits>.offset(of: \.max_items), promised: 8),
        Field(name: "qa_limits.max_user_info_depth (1.2)", offset: MemoryLayout<qa_limits>.offset(of: \.max_user_info_depth), promised: 36),
        Field(name: "qa_limits.call_max_items (1.2)", offset: MemoryLayout<qa_limits>.offset(of: \.call_max_items), promised: 52),
    ]

    @Test(.enabled(if: MemoryLayout<Int>.size == 8, "the table is LP64's"), arguments: fields)
    func everyFieldStaysWhereItsABIVersionPutIt(_ field: Field) {
        #expect(field.offset == field.promised, "\(field.name) is at \(field.offset.map(String.init) ?? "?"), promised \(field.promised)")
    }

    /// The frozen value structs are laid out in arrays, so their sizes are part of major 1.
    @Test(.enabled(if: MemoryLayout<Int>.size == 8, "the sizes are LP64's"))
    func theFrozenValueStructsKeepTheirSizes() {
        #expect(MemoryLayout<qa_value>.size == 24)
        #expect(MemoryLayout<qa_entry>.size == 32)
    }
}
