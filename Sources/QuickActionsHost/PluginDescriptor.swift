import CQuickActionsPlugin
import QuickActionsABI

/// A plugin's `qa_plugin` descriptor, read defensively: `struct_size` first,
/// then the version (refused unless this host serves it), and only then the
/// rest of the 1.0 fields.
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
        let size = raw.load(as: Int.self)
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
        let known = MemoryLayout<qa_plugin>.size
        guard size >= known else {
            throw .invalidDescriptor(
                library: library, reason: "struct_size \(size) is smaller than ABI \(version)'s qa_plugin (\(known) bytes)")
        }
        let descriptor = pointer.pointee
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
}
