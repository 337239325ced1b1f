import CQuickActionsPlugin
import Glibc

/// What the plugin's entry symbol returns: its descriptor, built by the SDK.
///
/// A Swift plugin exports itself with one line, and no unsafe code:
///
/// ```swift
/// @_cdecl("quickactions_plugin_entry")
/// public func quickActionsPluginEntry() -> PluginEntry { PluginEntry(MusicPlugin.self) }
/// ```
///
/// `@_cdecl` makes the function a C symbol named as the header requires;
/// `public` keeps it exported from the shared library.
public typealias PluginEntry = UnsafePointer<qa_plugin>

extension UnsafePointer where Pointee == qa_plugin {
    /// The descriptor of plugin type `P`, for the entry symbol to return.
    ///
    /// Built once per plugin type and kept until the process exits, as the
    /// header requires; later calls return the same descriptor.
    ///
    /// Without a `name`, the descriptor names the type, as `String(describing:)` would
    /// ("MusicPlugin"), but read straight from its metadata: describing a type asks the runtime
    /// whether it conforms to the description protocols, a scan of every conformance record of
    /// every loaded image, which was nearly all that the entry cost at a launch.
    public init<P: QuickActionsPlugin>(_ type: P.Type, name: String? = nil) {
        self = DescriptorRegistry.descriptor(for: type, name: name)
    }
}

/// The descriptors built in this plugin library, one per plugin type.
///
/// A descriptor is laid out as a `qa_plugin` followed by a pointer to its
/// ``PluginFactory``: init receives the descriptor, so the C callbacks find
/// the Swift type without any global lookup.
enum DescriptorRegistry {
    private static let registry = DescriptorCache()

    /// Where the factory pointer sits after the `qa_plugin`.
    static let factoryOffset: Int = {
        let alignment = MemoryLayout<UnsafeRawPointer>.alignment
        return (MemoryLayout<qa_plugin>.size + alignment - 1) / alignment * alignment
    }()

    static func descriptor<P: QuickActionsPlugin>(for type: P.Type, name: String?) -> UnsafePointer<qa_plugin> {
        registry.descriptor(for: ObjectIdentifier(type)) {
            let name = name ?? _typeName(type, qualified: false)
            let factory = PluginFactory { host in try P(host: host) }
            let size = factoryOffset + MemoryLayout<UnsafeRawPointer>.size
            let block = UnsafeMutableRawPointer.allocate(
                byteCount: size, alignment: max(MemoryLayout<qa_plugin>.alignment, MemoryLayout<UnsafeRawPointer>.alignment))
            var plugin = qa_plugin()
            plugin.struct_size = MemoryLayout<qa_plugin>.size
            plugin.abi_major = UInt32(QA_ABI_MAJOR)
            plugin.abi_minor = UInt32(QA_ABI_MINOR)
            plugin.name = UnsafePointer(strdup(name))
            plugin.`init` = PluginBridge.initialize
            plugin.launch = PluginBridge.launch
            plugin.perform = PluginBridge.perform
            plugin.will_resign = PluginBridge.willResign
            block.initializeMemory(as: qa_plugin.self, repeating: plugin, count: 1)
            block.storeBytes(
                of: UnsafeRawPointer(Unmanaged.passRetained(factory).toOpaque()), toByteOffset: factoryOffset,
                as: UnsafeRawPointer.self)
            return UnsafePointer(block.assumingMemoryBound(to: qa_plugin.self))
        }
    }

    /// The factory stored after a descriptor built here.
    static func factory(of descriptor: UnsafePointer<qa_plugin>) -> PluginFactory {
        let raw = UnsafeRawPointer(descriptor).load(fromByteOffset: factoryOffset, as: UnsafeRawPointer.self)
        return Unmanaged<PluginFactory>.fromOpaque(raw).takeUnretainedValue()
    }
}

/// Makes the plugin instance for init.
final class PluginFactory {
    let make: (PluginHost) throws -> any QuickActionsPlugin

    init(make: @escaping (PluginHost) throws -> any QuickActionsPlugin) {
        self.make = make
    }
}
