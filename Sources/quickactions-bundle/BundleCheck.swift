import Foundation
import QuickActionsBundles
import QuickActionsModel

/// Reads an assembled bundle back as the broker will, before it is put in place.
enum BundleCheck {
    /// Checks that `bundle` reads without a single diagnostic, that its library is there, and
    /// that the app's icon and every static item's icon resolve (a file inside the bundle).
    /// - Parameter final: the name the bundle will have, for messages.
    /// - Throws: ``AssemblerError/check(bundle:reason:)`` with the first problem.
    static func verify(_ bundle: URL, as final: URL) throws(AssemblerError) {
        let outcome = BundleReader.read(bundleAt: bundle)
        if let diagnostic = outcome.diagnostics.first {
            throw .check(bundle: final.path, reason: diagnostic.description)
        }
        guard let read = outcome.bundle else {
            throw .check(bundle: final.path, reason: "it cannot be read")
        }
        var icons: [(owner: String, icon: ShortcutIcon)] = read.staticItems.compactMap { item in
            item.icon.map { ("item \(item.type)", $0) }
        }
        if let icon = read.manifest.icon { icons.append(("the app", icon)) }
        for (owner, icon) in icons {
            do {
                _ = try read.resolvedIcon(icon)
            } catch {
                throw .check(bundle: final.path, reason: "the icon of \(owner) does not resolve: \(error)")
            }
        }
    }
}
