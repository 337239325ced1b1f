import Foundation
import QuickActionsModel

/// Reads plugin bundles from disk without loading their libraries.
public enum BundleReader {
    /// The outcome of reading one bundle: the bundle, unless it failed, and what went wrong.
    public struct Outcome: Sendable {
        /// The bundle; nil when it cannot be used (then `diagnostics` holds an `.error`).
        public var bundle: PluginBundle?
        /// Warnings about skipped items and tables, and the error that failed the bundle.
        public var diagnostics: [Diagnostic]
        /// True when `Info.plist` exists but could not be read for a system reason (EMFILE,
        /// EIO, …): the folder may well hold a good bundle.
        public var systemFailure: Bool

        public init(bundle: PluginBundle?, diagnostics: [Diagnostic], systemFailure: Bool = false) {
            self.bundle = bundle
            self.diagnostics = diagnostics
            self.systemFailure = systemFailure
        }
    }

    /// Reads the bundle folder at `url`: `Info.plist`, then every `*.lproj/InfoPlist.strings`.
    ///
    /// A broken or missing `Info.plist` fails the bundle (an `.error` naming the file and the
    /// reason); a broken item or strings table is skipped with a `.warning`. A missing
    /// executable is a warning too: the loader reports it when the plugin is first used.
    /// `willRead` gets `url` before anything in it is read, then each `.lproj` folder before
    /// its table is: the broker's folder watch is added there, so a change made after the read
    /// (a manifest or library replaced in place, a table added) is always seen.
    public static func read(bundleAt url: URL, willRead: (URL) -> Void = { _ in }) -> Outcome {
        willRead(url)
        let infoPlistPath = url.appendingPathComponent("Info.plist", isDirectory: false).path
        let parsed: (manifest: BundleManifest, diagnostics: [Diagnostic])
        let infoPlistIdentity: FileIdentity
        var systemFailure = false
        do {
            let (data, identity) = try readFile(infoPlistPath, limit: BundleManifest.maximumInfoPlistSize,
                                                systemFailure: &systemFailure)
            parsed = try BundleManifest.parse(infoPlist: data, path: infoPlistPath)
            infoPlistIdentity = identity
        } catch {
            return Outcome(bundle: nil, diagnostics: [error.diagnostic], systemFailure: systemFailure)
        }
        var diagnostics = parsed.diagnostics
        let executablePath = url.appendingPathComponent(parsed.manifest.executable, isDirectory: false).path
        let executableIdentity = FileIdentity.of(path: executablePath)
        if executableIdentity == nil {
            diagnostics.append(Diagnostic(
                file: executablePath, reason: "the executable named by CFBundleExecutable is missing",
                severity: .warning
            ))
        }
        let tables = readStringsTables(in: url, willRead: willRead, diagnostics: &diagnostics)
        let bundle = PluginBundle(
            url: url,
            manifest: parsed.manifest,
            localizations: Localizations(tables: tables, developmentRegion: parsed.manifest.developmentRegion),
            identity: BundleIdentity(infoPlist: infoPlistIdentity, executable: executableIdentity)
        )
        diagnostics += iconFileWarnings(bundle, infoPlistPath: infoPlistPath)
        return Outcome(bundle: bundle, diagnostics: diagnostics)
    }

    /// A warning for each icon file (the app's, a static item's) that is missing or leads out
    /// of the bundle: the item is still listed, without that icon.
    private static func iconFileWarnings(_ bundle: PluginBundle, infoPlistPath: String) -> [Diagnostic] {
        var owners: [(String, ShortcutIcon)] = []
        if let icon = bundle.manifest.icon, case .file = icon { owners.append(("CFBundleIconFile", icon)) }
        for (index, item) in bundle.manifest.items.enumerated() {
            if let icon = item.icon, case .file = icon {
                owners.append(("UIApplicationShortcutItems[\(index)] (type \(item.type.quotedForMessage))", icon))
            }
        }
        return owners.compactMap { owner, icon in
            do {
                _ = try bundle.resolvedIcon(icon)
                return nil
            } catch {
                return Diagnostic(
                    file: infoPlistPath, reason: "\(bundle.manifest.appID): \(owner): \(error); listed without this icon",
                    severity: .warning)
            }
        }
    }

    /// Reads `<name>.lproj/InfoPlist.strings` for every non-hidden `.lproj` folder in the bundle.
    private static func readStringsTables(
        in url: URL, willRead: (URL) -> Void, diagnostics: inout [Diagnostic]
    ) -> [String: StringsTable] {
        let names: [String]
        switch FolderNames.list(url.path) {
        case .success(let listed): names = listed
        case .failure(let failure):
            diagnostics.append(Diagnostic(
                file: url.path, reason: "cannot list the bundle's folder: \(String(cString: strerror(failure.errno)))",
                severity: .warning
            ))
            return [:]
        }
        var tables: [String: StringsTable] = [:]
        for name in names.sorted() where name.hasSuffix(".lproj") && !name.hasPrefix(".") {
            let language = String(name.dropLast(".lproj".count))
            let folder = url.appendingPathComponent(name, isDirectory: true)
            willRead(folder)
            let path = folder.appendingPathComponent("InfoPlist.strings", isDirectory: false).path
            guard FileManager.default.fileExists(atPath: path) else { continue }
            do {
                var ignored = false
                let (data, _) = try readFile(path, limit: StringsTable.maximumSize, systemFailure: &ignored)
                tables[language] = try StringsTable.parse(data)
            } catch let error as BundleError {
                diagnostics.append(Diagnostic(file: path, reason: "\(error.reason); table ignored", severity: .warning))
            } catch {
                diagnostics.append(Diagnostic(file: path, reason: "\(error); table ignored", severity: .warning))
            }
        }
        return tables
    }

    /// Reads a whole regular file of at most `limit` bytes, with the identity of what was read.
    /// `systemFailure` is set when the file exists but a system call on it failed (EMFILE, EIO, …).
    private static func readFile(_ path: String, limit: Int, systemFailure: inout Bool) throws(BundleError) -> (Data, FileIdentity) {
        let contents: RegularFile.Contents?
        do {
            contents = try RegularFile.contents(of: path, limit: limit, followSymlinks: true)
        } catch {
            if case .system = error { systemFailure = true }
            if case .tooLarge(let bytes) = error { throw .tooLarge(path: path, bytes: bytes) }
            throw .unreadable(path: path, reason: error.reason)
        }
        guard let contents else {
            throw .unreadable(path: path, reason: String(cString: strerror(ENOENT)))
        }
        return (Data(contents.bytes), FileIdentity(contents.status))
    }
}
