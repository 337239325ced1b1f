import QuickActionsModel

/// Why the dynamic-item store could not do what it was asked.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No `--state-dir`, no absolute `XDG_STATE_HOME` and no absolute `HOME`.
    case noStateDirectory
    /// The list breaks an item limit; nothing was written.
    case limits(appID: AppID, ItemLimitError)
    /// A system call failed; the old list, if any, is intact.
    case system(SystemCallError)

    public var description: String {
        switch self {
        case .noStateDirectory:
            return "no state directory: give --state-dir, or set XDG_STATE_HOME or HOME to an absolute path"
        case .limits(let appID, let error):
            return "dynamic items of \(appID) not saved: \(error)"
        case .system(let error):
            return "\(error)"
        }
    }
}
