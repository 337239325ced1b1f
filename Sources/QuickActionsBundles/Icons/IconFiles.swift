// Icon files resolved inside a bundle (`IconTable.resolve(_:bundlePath:)`, `IconError`) live in
// QuickActionsIconFiles, which the plugin host links without the rest of this module (and so
// without Foundation); they stay visible to every importer of QuickActionsBundles.
import Foundation
@_exported import QuickActionsIconFiles
import QuickActionsModel

extension IconTable {
    /// ``IconTable/resolve(_:bundlePath:)`` for the bundle folder at `bundle`.
    /// - Throws: `IconError` naming the path or name at fault.
    public static func resolve(_ icon: ShortcutIcon, bundle: URL) throws(IconError) -> String {
        try resolve(icon, bundlePath: bundle.path)
    }
}
