import CQuickActionsPlugin

/// An ABI version of `quickactions_plugin.h`: a major and a minor number.
///
/// Compatibility follows the header: a host accepts a plugin with the same
/// major, whatever its minor. A plugin of an older minor gets every field it
/// knows; one of a newer minor gets the host's own fields, and the host reads
/// its structs only as far as the fields of the host's minor.
public struct ABIVersion: Sendable, Hashable, CustomStringConvertible {
    public var major: UInt32
    public var minor: UInt32

    public init(major: UInt32, minor: UInt32) {
        self.major = major
        self.minor = minor
    }

    /// The version of the header this code was compiled against
    /// (`QA_ABI_MAJOR`.`QA_ABI_MINOR`).
    public static let current = ABIVersion(major: UInt32(QA_ABI_MAJOR), minor: UInt32(QA_ABI_MINOR))

    /// Whether a host of this version can load a plugin built for `plugin`:
    /// the same major.
    public func accepts(plugin: ABIVersion) -> Bool {
        plugin.major == major
    }

    public var description: String { "\(major).\(minor)" }
}
