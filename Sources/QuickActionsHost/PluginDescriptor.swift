import CQuickActionsPlugin
import QuickActionsABI

/// A plugin's `qa_plugin` descriptor, read defensively: `struct_size` first,
/// then the version (refused unless its major is this host's), and only then
/// the fields both the plugin's struct and this host know: a descriptor of a
/// newer minor may be longer, and what lies past this host's fields is never
/// read.
struct PluginDescriptor: @unchecked Sendable {
    // @unchecked: the pointer and the function pointers point into a library
    // that stays mapped for as long as this value is used (the header
    // requires the descriptor to stay valid and unchanged).
    let pointer: UnsafePointer<qa_plugin>
    let version: ABIVersion
    let name: String?
    let initialize: @convention(c) (
        UnsafePointer<qa_plugin>?, UnsafePointer<qa_host>?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
        UnsafeMutablePointer<CChar>?, Int
    ) -> qa_status
    let launch: (@convention(c) (UnsafeMutableRawPointer?, UnsafePointer<qa_request>?, qa_completion) -> Bool)?
    let perform: (@convention(c) (UnsafeMutableRawPointer?, UnsafePointer<qa_request>?, qa_completion) -> Void)?
    let willResign: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?

    init(reading pointer: UnsafePointer<qa_plugin>?, library: String) throws(PluginLoadError) {
        guard let pointer else {
            throw .invalidDescriptor(library: library, reason: "the entry returned NULL")
        }
        let raw = UnsafeRawPointer(pointer)
        let size = SizedStruct.size(at: raw)
        guard let majorOffset = MemoryLayout<qa_plugin>.offset(of: \.abi_major),
            let minorOffset = MemoryLayout<qa_plugin>.offset(of: \.abi_minor)
        else {
            throw .invalidDescriptor(library: library, reason: "qa_plugin's layout is unknown")  // cannot happen
        }
        guard size >= minorOffset + MemoryLayout<UInt32>.size else {
            throw .invalidDescriptor(
                library: library, reason: "struct_size \(size) is too small to hold the ABI version")
        }
        let version = ABIVersion(
            major: raw.load(fromByteOffset: majorOffset, as: UInt32.self),
            minor: raw.load(fromByteOffset: minorOffset, as: UInt32.self))
        guard ABIVersion.current.accepts(plugin: version) else {
            throw .abiMismatch(library: library, plugin: version, host: .current)
        }
        guard size >= Self.sizeOfABI10 else {
            throw .invalidDescriptor(
                library: library,
                reason: "struct_size \(size) is smaller than ABI 1.0's qa_plugin (\(Self.sizeOfABI10) bytes)")
        }
        let descriptor = SizedStruct.copy(from: raw, size: size, over: qa_plugin())
        guard let initialize = descriptor.`init` else {
            throw .invalidDescriptor(library: library, reason: "init is NULL")
        }
        self.pointer = pointer
        self.version = version
        self.name = CStrings.message(descriptor.name)
        self.initialize = initialize
        self.launch = descriptor.launch
        self.perform = descriptor.perform
        self.willResign = descriptor.will_resign
    }

    /// The size of ABI 1.0's `qa_plugin`: every field up to and including
    /// `will_resign` (no field has been appended since).
    static let sizeOfABI10 = MemoryLayout<qa_plugin>.offset(of: \qa_plugin.will_resign).map {
        $0 + MemoryLayout<UnsafeRawPointer>.size
    } ?? MemoryLayout<qa_plugin>.size
}
