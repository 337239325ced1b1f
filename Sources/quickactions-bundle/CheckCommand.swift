import Foundation
import QuickActionsBundles
import QuickActionsModel

/// `quickactions-bundle check BUNDLE...`: reads each bundle exactly as the
/// broker does and prints every diagnostic the broker would log, one per
/// line, then a verdict per bundle.
enum CheckCommand {
    /// Checks `paths`; prints to `output`. Returns the exit status: 0 when
    /// every bundle is usable (warnings allowed), 1 when one is not, 2 when
    /// no bundle was named.
    static func run(_ paths: [String], output: (String) -> Void) -> Int32 {
        guard !paths.isEmpty else {
            output("quickactions-bundle: check needs at least one bundle folder (see --help)")
            return 2
        }
        var status: Int32 = 0
        for path in paths {
            let url = URL(fileURLWithPath: path, isDirectory: true)
            let outcome = BundleReader.read(bundleAt: url)
            // The broker logs each as "<severity>: <file>: <reason>"; the same words here.
            for diagnostic in outcome.diagnostics {
                output("\(diagnostic.severity.rawValue): \(diagnostic.file): \(diagnostic.reason)")
            }
            let warnings = outcome.diagnostics.filter { $0.severity == .warning }.count
            if let bundle = outcome.bundle {
                output("\(path): ok: \(bundle.appID), \(bundle.staticItems.count) static item(s), \(warnings) warning(s)")
            } else {
                output("\(path): not usable: the broker skips this bundle")
                status = 1
            }
        }
        return status
    }
}
