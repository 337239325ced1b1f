import Foundation
import QuickActionsBundles
import QuickActionsModel

/// Assembles examples into bundles in a plugin directory: `<output>/<Name>.bundle` with the
/// example's resources and its built library, named as CFBundleExecutable says.
struct BundleAssembler: Sendable {
    /// The folder holding the built libraries.
    var products: URL
    /// The plugin directory.
    var output: URL

    /// Assembles `example` in a hidden folder beside its final place, checks it, then puts it
    /// in place. On failure nothing is left behind and a bundle already there stays.
    /// - Returns: the bundle's folder.
    /// - Throws: ``AssemblerError`` naming the file or value at fault.
    func assemble(_ example: Example) throws(AssemblerError) -> URL {
        let manifest = try readManifest(of: example)
        let library = products.appendingPathComponent(manifest.executable)
        guard (try? BundleFiles.kind(of: library)) == .file else {
            throw .missingLibrary(path: library.path, product: Self.productName(of: manifest.executable))
        }
        try BundleFiles.makeFolder(output)
        let final = output.appendingPathComponent("\(example.name).bundle", isDirectory: true)
        let process = ProcessInfo.processInfo.processIdentifier
        let staged = output.appendingPathComponent(".\(example.name).bundle.partial-\(process)", isDirectory: true)
        let aside = output.appendingPathComponent(".\(example.name).bundle.old-\(process)", isDirectory: true)
        BundleFiles.remove(staged)
        do {
            try BundleFiles.makeFolder(staged)
            try BundleFiles.copyTree(example.resources, into: staged)
            try BundleFiles.copyFile(library, to: staged.appendingPathComponent(manifest.executable), mode: 0o755)
            try BundleCheck.verify(staged, as: final)
            try BundleFiles.replace(final, with: staged, aside: aside)
        } catch {
            BundleFiles.remove(staged)
            throw error
        }
        return final
    }

    /// Parses the example's Info.plist; a warning is an error here, since an example must read cleanly.
    private func readManifest(of example: Example) throws(AssemblerError) -> BundleManifest {
        let path = example.infoPlist.path
        let data: Data
        do {
            data = try Data(contentsOf: example.infoPlist)
        } catch {
            throw .fileSystem(operation: "read", path: path, reason: error.localizedDescription)
        }
        do {
            let (manifest, diagnostics) = try BundleManifest.parse(infoPlist: data, path: path)
            guard diagnostics.isEmpty else { throw AssemblerError.warnings(example: example.name, diagnostics.map(\.description)) }
            return manifest
        } catch let error as BundleError {
            throw .manifest(path: error.path, reason: error.reason)
        } catch let error as AssemblerError {
            throw error
        } catch {
            throw .manifest(path: path, reason: "\(error)")
        }
    }

    /// The SwiftPM product that builds `library` (`libQuickActionsExampleContacts.so` → `QuickActionsExampleContacts`).
    static func productName(of library: String) -> String {
        var name = Substring(library)
        if name.hasPrefix("lib") { name = name.dropFirst(3) }
        if name.hasSuffix(".so") { name = name.dropLast(3) }
        return String(name)
    }
}
