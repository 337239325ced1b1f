import Foundation

/// Where the dynamic-item store keeps its files.
public enum StateDirectory {
    /// `override` (`--state-dir`) when given; else `$XDG_STATE_HOME/quickactions` when
    /// `XDG_STATE_HOME` is absolute; else `$HOME/.local/state/quickactions`.
    /// Pure: reads only `environment`.
    /// - Throws: `StoreError.noStateDirectory` when there is neither an override, an absolute
    ///   `XDG_STATE_HOME` nor an absolute `HOME`.
    public static func resolve(override: String? = nil, environment: [String: String]) throws(StoreError) -> URL {
        if let override, !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        guard let base = XDGDirectories.base("XDG_STATE_HOME", fallback: ".local/state", environment: environment) else {
            throw .noStateDirectory
        }
        return URL(fileURLWithPath: base + "/quickactions", isDirectory: true)
    }
}
