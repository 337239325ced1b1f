import DBus
import Foundation
import QuickActionsAPI

/// What the bridge keeps per app: the desktop file id it serves and whether the entry there
/// carries the app's items.
struct AppEntry: Sendable, Equatable {
    var desktopID: String
    var showsItems: Bool
    /// The file we wrote for the app, if any.
    var path: String?
}

/// Derives and writes one app's entry from what the broker lists: reads the app's properties
/// and items (in every language), finds its original, checks what is in the user's folder, and
/// writes, leaves alone or removes. Runs on the bridge's one worker task only.
struct EntrySync {
    let proxy: BrokerProxy
    let directories: DataDirectories
    let composer: EntryComposer
    let logOnce: @Sendable (_ key: String, _ message: String) -> Void
    let log: @Sendable (String) -> Void

    /// The default locale's items come from asking for "C": the bundle's development region.
    static let defaultLocale = "C"

    /// Brings `app`'s entry up to date; returns what it now serves.
    func sync(_ app: ListedApplication, previous: AppEntry?) async -> AppEntry? {
        let properties: [String: Value]
        let items: [ListedItem]
        do {
            properties = try await proxy.applicationProperties(of: app.id)
            // Only a plugin's items: what item providers give (an installed application's own
            // actions, its recent documents, a player's controls) belongs to the original
            // entry or changes too often to rewrite entries for.
            items = try await proxy.items(of: app.id, locale: Self.defaultLocale).filter { $0.provider == nil }
        } catch {
            log("cannot read \(app.id) from the broker: \(error); its entry stays as it is")
            return previous
        }
        let named = properties[BrokerAPI.Property.desktopEntry]?.string ?? ""
        guard let id = DesktopFileID(named.isEmpty ? app.id : named) else {
            logOnce("id \(app.id) \(named)", "\(app.id): \"\(named.prefix(80))\" is not a desktop file id; no entry")
            return nil
        }
        let languages = properties[BrokerAPI.Property.languages]?.array?.compactMap(\.string) ?? []
        let actionItems = await localized(items, app: app.id, languages: languages)
        let target = directories.userPath(of: id)
        var entry = AppEntry(desktopID: id.rawValue, showsItems: false, path: nil)
        // An id change (the bundle now names another entry) leaves our old file behind.
        if let old = previous?.path, old != target { removeOurs(old, app: app.id) }

        // What is there now decides; the write and any removal below happen only if the file
        // still holds these bytes, so an edit saved meanwhile is never written over.
        let (status, current) = GeneratedMark.inspect(target)
        switch status {
        case .foreign:
            logOnce("foreign \(target)", "\(target) is not ours (no QuickActions mark): left alone, \(app.id)'s items are not added to it")
            return entry
        case .edited:
            logOnce("edited \(target)", "\(target) was edited since we wrote it: left alone, the user's edits win")
            return entry
        case .ours(let owner) where owner != app.id:
            logOnce("owner \(target) \(app.id)", "\(target) shows \(owner)'s items; \(app.id) names the same entry and is left out")
            return entry
        case .ours, .absent:
            break
        }

        let composed: (file: DesktopEntryFile, skipped: [EntryComposer.Skipped])
        // A file of ours is never an original (a data folder listed twice, once through a
        // symlink to $XDG_DATA_HOME, would otherwise make us copy our own copy).
        if let originalPath = directories.original(of: id, skipping: { GeneratedMark.status(ofFileAt: $0) != .foreign }) {
            guard let original = readOriginal(originalPath, app: app.id) else {
                removeOurs(target, app: app.id, judged: (status, current))
                return entry
            }
            if items.isEmpty {
                removeOurs(target, app: app.id, judged: (status, current))
                return entry
            }
            composed = composer.copy(of: original, app: app.id, items: actionItems)
        } else if !named.isEmpty {
            // The bundle names its app's entry and it is not installed (or was removed): no
            // entry of ours may take that id; the copy, if any, goes.
            logOnce("noentry \(app.id) \(id)", "\(app.id) names \(id), which is in none of \(directories.systemApplications.joined(separator: ", ")); no entry")
            removeOurs(target, app: app.id, judged: (status, current))
            return entry
        } else {
            if items.isEmpty {
                removeOurs(target, app: app.id, judged: (status, current))
                return nil
            }
            composed = composer.generated(
                app: app.id, name: defaultName(app, properties), localizedNames: localizedNames(properties, languages: languages),
                icon: app.icon, items: actionItems)
        }
        for skipped in composed.skipped {
            logOnce("skip \(app.id) \(skipped.itemID)", "\(app.id): \(skipped)")
        }
        do {
            let text = try GeneratedMark.marked(composed.file, app: app.id)
            try AtomicFile.makeFolder(directories.userApplications)
            switch try AtomicFile.write(text, to: target, temporaryFolder: Self.scratchFolder(directories), ifStill: current) {
            case .done:
                log("wrote \(target): \(actionItems.count - composed.skipped.count) items of \(app.id) as actions")
            case .unchanged:
                break
            case .changedMeanwhile:
                log("\(target) changed while \(app.id)'s items were written: left as it is now")
                return entry
            }
        } catch {
            log("cannot write \(target): \(error)")
            return entry
        }
        entry.showsItems = true
        entry.path = target
        return entry
    }

    /// The app's name for `Name=`: DisplayNames' "C" entry (no particular language); a broker
    /// without it gives ListApplications' name, in its own locale.
    private func defaultName(_ app: ListedApplication, _ properties: [String: Value]) -> String {
        properties[BrokerAPI.Property.displayNames]?.dictionary?[.string(Self.defaultLocale)]?.string ?? app.name
    }

    /// `Name[xx]=` of a generated entry: DisplayNames, by key locale.
    private func localizedNames(_ properties: [String: Value], languages: [String]) -> [(locale: String, name: String)] {
        let names = properties[BrokerAPI.Property.displayNames]?.dictionary ?? [:]
        var result: [(locale: String, name: String)] = []
        for language in languages {
            guard let key = DesktopLocale.key(forLanguage: language), !result.contains(where: { $0.locale == key }),
                  let name = names[.string(language)]?.string
            else { continue }
            result.append((key, name))
        }
        return result
    }

    /// The items with their titles in every language the bundle has, matched by item id.
    private func localized(_ items: [ListedItem], app: String, languages: [String]) async -> [ActionItem] {
        var titles: [(locale: String, byID: [String: String])] = []
        for language in languages {
            guard let key = DesktopLocale.key(forLanguage: language) else {
                logOnce("language \(app) \(language)", "\(app): the language \"\(language.prefix(40))\" has no desktop locale; no Name[] for it")
                continue
            }
            guard !titles.contains(where: { $0.locale == key }) else { continue }
            guard let listed = try? await proxy.items(of: app, locale: language) else { continue }
            titles.append((key, Dictionary(listed.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })))
        }
        return items.map { item in
            ActionItem(
                itemID: item.id, type: item.type, title: item.title,
                localizedTitles: titles.map { ($0.locale, $0.byID[item.id] ?? item.title) }, icon: item.icon)
        }
    }

    /// The original, parsed, or nil (logged once) when it cannot carry our actions.
    private func readOriginal(_ path: String, app: String) -> DesktopEntryFile? {
        // Packages and alternatives often install originals as symbolic links: follow them.
        guard let bytes = AtomicFile.read(path, followingSymlinks: true) else {
            logOnce("unreadable \(path)", "cannot read \(path); \(app) gets no actions there")
            return nil
        }
        let file: DesktopEntryFile
        do {
            file = try DesktopEntryParser.parse(bytes)
        } catch {
            logOnce("broken \(path)", "\(path) is not a desktop entry we can copy (\(error)); \(app) gets no actions there")
            return nil
        }
        guard let main = file.main else {
            logOnce("nomain \(path)", "\(path) has no [Desktop Entry] group; \(app) gets no actions there")
            return nil
        }
        if main.flag("DBusActivatable") {
            logOnce("dbus \(path)",
                    "\(path) is DBusActivatable=true: desktops send its actions to the application over D-Bus, never to us; \(app)'s items are not added")
            return nil
        }
        if main.flag("Hidden") {
            logOnce("hidden \(path)", "\(path) is Hidden=true (deleted); \(app) gets no entry")
            return nil
        }
        guard main.value("Type")?.trimmingSpaces == "Application" else {
            logOnce("type \(path)", "\(path) is not of Type=Application; \(app) gets no actions there")
            return nil
        }
        return file
    }

    /// Removes `path` if it is our unedited file for `app`, judged now or by `judged` (what
    /// the caller read), and only if it still holds those bytes when it goes.
    func removeOurs(_ path: String, app: String, judged: (status: GeneratedMark.Status, bytes: [UInt8]?)? = nil) {
        let (status, bytes) = judged ?? GeneratedMark.inspect(path)
        guard status == .ours(app: app), let bytes else { return }
        Self.remove(path, ifStill: bytes, directories: directories, log: log)
    }

    /// Removes our file at `path` if it still holds `bytes`, saying what happened; true when
    /// it was removed.
    @discardableResult
    static func remove(
        _ path: String, ifStill bytes: [UInt8], directories: DataDirectories, log: (String) -> Void
    ) -> Bool {
        do {
            switch try AtomicFile.remove(path, temporaryFolder: scratchFolder(directories), ifStill: bytes) {
            case .done:
                log("removed \(path)")
                return true
            case .unchanged:
                return false
            case .changedMeanwhile:
                log("\(path) changed as it was being removed: left as it is now")
                return false
            }
        } catch {
            log("cannot remove \(path): \(error)")
            return false
        }
    }

    /// Where temporary files are made: a subfolder of the user's folder (same file system), so
    /// a desktop watching the folder sees one event per write, the rename.
    static func scratchFolder(_ directories: DataDirectories) -> String {
        directories.userApplications + "/.quickactions"
    }

    /// Every file in the user's folder the bridge wrote and nobody edited, with its app.
    static func ourFiles(in directories: DataDirectories) -> [(path: String, app: String, bytes: [UInt8])] {
        let folder = directories.userApplications
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        return names.filter { $0.hasSuffix(".desktop") }.sorted().compactMap { name in
            let path = folder + "/" + name
            if case (.ours(let app), let bytes?) = GeneratedMark.inspect(path) { return (path, app, bytes) }
            return nil
        }
    }
}

