import QuickActionsABI

/// An ABI version of `quickactions_plugin.h`, as found in a plugin's descriptor.
public typealias PluginABIVersion = ABIVersion

/// Why a plugin could not be loaded. Every case names the library's path;
/// ``reason`` says what was wrong, and ``description`` is the log line.
///
/// The cases follow the order of loading: the file is checked before any of
/// its code runs (``fileMissing``, ``refused``), then opened
/// (``notLoadable``), its entry looked up (``symbolMissing``), its descriptor
/// read (``invalidDescriptor``, ``abiMismatch``), and its init called
/// (``initFailed``).
public enum PluginLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The library file (or its bundle folder) does not exist.
    case fileMissing(library: String)
    /// Refused before any of its code ran: a symlink, not a regular file,
    /// group- or world-writable, owned by someone else, outside its bundle;
    /// `reason` names the file or folder at fault.
    case refused(library: String, reason: String)
    /// `dlopen` failed; `reason` is `dlerror`'s text.
    case notLoadable(library: String, reason: String)
    /// The library does not export the entry symbol.
    case symbolMissing(library: String, symbol: String)
    /// The entry returned NULL or a descriptor that breaks the header's rules.
    case invalidDescriptor(library: String, reason: String)
    /// The plugin was built for an ABI version this host cannot serve: another major.
    case abiMismatch(library: String, plugin: PluginABIVersion, host: PluginABIVersion)
    /// The plugin's init returned an error; `message` is the plugin's text.
    case initFailed(library: String, message: String)

    /// The path of the library that failed to load.
    public var library: String {
        switch self {
        case .fileMissing(let library), .refused(let library, _), .notLoadable(let library, _),
            .symbolMissing(let library, _), .invalidDescriptor(let library, _), .abiMismatch(let library, _, _),
            .initFailed(let library, _):
            return library
        }
    }

    /// What went wrong, without the path.
    public var reason: String {
        switch self {
        case .fileMissing:
            return "file missing"
        case .refused(_, let reason):
            return "refused: \(reason)"
        case .notLoadable(_, let reason):
            return "not loadable: \(reason)"
        case .symbolMissing(_, let symbol):
            return "entry symbol \(symbol) missing"
        case .invalidDescriptor(_, let reason):
            return "invalid descriptor: \(reason)"
        case .abiMismatch(_, let plugin, let host):
            return "ABI mismatch: plugin built for \(plugin), host serves ABI \(host.major).x (itself \(host)); "
                + Self.remedy(plugin: plugin, host: host)
        case .initFailed(_, let message):
            return "init failed: \(message)"
        }
    }

    public var description: String { "plugin \(library): \(reason)" }

    /// Which side of an ABI mismatch to update: a plugin built for a newer
    /// major needs a newer broker; one built for an older major must be
    /// rebuilt against this host's header.
    static func remedy(plugin: PluginABIVersion, host: PluginABIVersion) -> String {
        if plugin.major > host.major {
            return "the plugin is newer than this broker: update the broker (quickactionsd) to one serving ABI \(plugin)"
        }
        return "the plugin is older than this broker: rebuild the plugin against quickactions_plugin.h \(host)"
    }
}
