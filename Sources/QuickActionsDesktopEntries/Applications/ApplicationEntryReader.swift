import QuickActionsProviding

/// Reads one desktop entry as an installed application, deciding whether it is shown as the
/// Desktop Entry Specification says: `Type=Application`, not `Hidden`, not `NoDisplay`,
/// `OnlyShowIn` / `NotShowIn` against the current desktops (GLib's order: the first current
/// desktop either list names decides; with none named, shown unless `OnlyShowIn` is set), and
/// `TryExec` found. Entries the desktop-entry bridge generated (``GeneratedMark``) are not
/// applications at all.
struct ApplicationEntryReader: Sendable {
    /// `$XDG_CURRENT_DESKTOP`, split at `:`.
    let currentDesktops: [String]
    /// `$PATH`, for `TryExec`.
    let searchPath: String?

    /// The most UTF-8 bytes a `Name` (any translation, the app's or an action's) may have; an
    /// entry with a longer one is refused, an action with one left out. Real names are a few
    /// dozen bytes; a longer one is an attack on every list that shows it.
    static let maximumNameBytes = 1024

    /// What one file is.
    enum Reading: Sendable, Equatable {
        /// Written by the desktop-entry bridge: never an installed application, and it
        /// shadows nothing.
        case generated
        /// An application to show.
        case shown(InstalledApplication)
        /// A desktop entry that is not shown (and hides any entry of its id further down the
        /// data folders, as GLib's does), and why.
        case notShown(String)
        /// A file that could not be read as a desktop entry, and why (it shadows like any other).
        case refused(String)
    }

    init(environment: [String: String]) {
        currentDesktops = (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map(String.init)
        searchPath = environment["PATH"]
    }

    /// The keys ``interpret(_:path:desktopID:log:)`` reads, per group: reading only these
    /// (an entry's translated GenericName, Comment and Keywords are most of it) makes reading
    /// every installed application at start-up a fraction of parsing whole files (issue 33 §6).
    static func keysRead(group: String) -> Set<String> {
        if group == DesktopEntryFile.mainGroup { return mainKeys }
        return group.hasPrefix(DesktopEntryFile.actionGroupPrefix) ? actionKeys : []
    }

    static let mainKeys: Set<String> = [
        GeneratedMark.generatedKey, "Type", "Hidden", "NoDisplay", "OnlyShowIn", "NotShowIn", "Name", "TryExec", "Exec",
        "DBusActivatable", "Icon", "Path", "Terminal", "MimeType", "Actions",
    ]
    static let actionKeys: Set<String> = ["Name", "Icon", "Exec"]

    /// Reads `path`. `log` hears about the parts left out (actions with bad names).
    /// `cacheable` is false for an entry with a `TryExec`: whether that program is installed
    /// can change while the file does not (``ApplicationIndexCache``).
    func read(path: String, desktopID: String, log: (String) -> Void) -> (reading: Reading, cacheable: Bool) {
        let bytes: [UInt8]
        switch EntryBytes.read(path) {
        case .success(let read): bytes = read
        case .failure(let refusal): return (.refused(refusal.description), true)
        }
        let file: DesktopEntryFile
        do {
            file = try DesktopEntryParser.parse(bytes, keeping: Self.keysRead)
        } catch {
            return (.refused("is not a desktop entry: \(error)"), true)
        }
        let cacheable = (file.main?.value("TryExec") ?? "").isEmpty
        return (interpret(file, path: path, desktopID: desktopID, log: log), cacheable)
    }

    func interpret(_ file: DesktopEntryFile, path: String, desktopID: String, log: (String) -> Void) -> Reading {
        guard let main = file.main else { return .refused("has no [Desktop Entry] group") }
        if main.value(GeneratedMark.generatedKey) != nil { return .generated }
        let type = main.value("Type") ?? ""
        guard type == "Application" else { return .notShown("its Type is \"\(ValueEscaping.bounded(type))\", not Application") }
        if Self.isTrue(main, "Hidden") { return .notShown("Hidden is true") }
        if Self.isTrue(main, "NoDisplay") { return .notShown("NoDisplay is true") }
        if let reason = showInReason(main) { return .notShown(reason) }
        let name: LocalizedText
        switch Self.localized(main, "Name") {
        case .success(let text?): name = text
        case .success(nil): return .refused("has no Name")
        case .failure(let reason): return .refused(reason.description)
        }
        if let tryExec = main.value("TryExec"), !tryExec.isEmpty,
           ProgramLookup.find(tryExec, searchPath: searchPath) == nil {
            return .notShown("its TryExec program \"\(ValueEscaping.bounded(tryExec))\" is not installed")
        }
        let exec = main.value("Exec").flatMap { $0.isEmpty ? nil : $0 }
        let dbusActivatable = Self.isTrue(main, "DBusActivatable")
        guard exec != nil || dbusActivatable else { return .notShown("it has no Exec and is not DBusActivatable") }
        let desktopSuffix = ".desktop"
        let appID = desktopID.hasSuffix(desktopSuffix) ? String(desktopID.dropLast(desktopSuffix.count)) : desktopID
        return .shown(InstalledApplication(
            desktopID: desktopID, appID: appID, path: path, name: name, icon: Self.nonEmpty(main.value("Icon")), exec: exec,
            workingDirectory: Self.nonEmpty(main.value("Path")), terminal: Self.isTrue(main, "Terminal"),
            dbusActivatable: dbusActivatable,
            mimeTypes: main.lastEntry("MimeType").map { ValueEscaping.unescapeList($0.rawValue) } ?? [],
            actions: actions(of: file, main: main, path: path, log: log)))
    }

    /// The actions `Actions=` names, in its order, each once, that have a group with a Name.
    private func actions(of file: DesktopEntryFile, main: DesktopEntryFile.Group, path: String, log: (String) -> Void) -> [DesktopAction] {
        guard let listed = main.lastEntry("Actions") else { return [] }
        var seen: Set<String> = []
        var actions: [DesktopAction] = []
        for id in ValueEscaping.unescapeList(listed.rawValue) where !id.isEmpty && seen.insert(id).inserted {
            guard let group = file.group(DesktopEntryFile.actionGroupPrefix + id) else { continue }
            switch Self.localized(group, "Name") {
            case .success(let name?):
                actions.append(DesktopAction(
                    id: id, name: name, icon: Self.nonEmpty(group.value("Icon")), exec: Self.nonEmpty(group.value("Exec"))))
            case .success(nil):
                log("\(path): the action \"\(ValueEscaping.bounded(id))\" has no Name; left out")
            case .failure(let reason):
                log("\(path): the action \"\(ValueEscaping.bounded(id))\" is left out: \(reason)")
            }
        }
        return actions
    }

    /// GLib's rule (`g_desktop_app_info_get_show_in`): for each current desktop in order, being
    /// in `OnlyShowIn` shows and being in `NotShowIn` hides; when none decides, the entry is
    /// shown unless it has `OnlyShowIn`. Nil when shown, else why not.
    private func showInReason(_ main: DesktopEntryFile.Group) -> String? {
        let only = main.lastEntry("OnlyShowIn").map { ValueEscaping.unescapeList($0.rawValue) }
        let not = main.lastEntry("NotShowIn").map { ValueEscaping.unescapeList($0.rawValue) }
        for desktop in currentDesktops {
            if only?.contains(desktop) == true { return nil }
            if not?.contains(desktop) == true { return "NotShowIn names \(desktop)" }
        }
        guard let only else { return nil }
        let current = currentDesktops.isEmpty ? "no current desktop" : "the current desktops \(currentDesktops.joined(separator: ":"))"
        return "OnlyShowIn (\(ValueEscaping.bounded(only.joined(separator: ";")))) names none of \(current)"
    }

    /// A boolean as GLib's key file reads one: `true` or `1`.
    static func isTrue(_ group: DesktopEntryFile.Group, _ key: String) -> Bool {
        let value = group.value(key)?.trimmingSpaces
        return value == "true" || value == "1"
    }

    static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }

    struct NameTooLong: Error, CustomStringConvertible {
        let description: String
    }

    /// `key` and its translations (the last of each locale wins, as in GLib); nil without an
    /// untranslated value; a failure naming the key when any value is longer than
    /// ``maximumNameBytes``.
    static func localized(_ group: DesktopEntryFile.Group, _ key: String) -> Result<LocalizedText?, NameTooLong> {
        var value: String?
        var translations: [String: String] = [:]
        for line in group.lines {
            guard case .entry(let entry) = line, entry.key == key else { continue }
            // Measured before unescaping: escapes only shorten.
            guard entry.rawValue.utf8.count <= maximumNameBytes else {
                return .failure(NameTooLong(description:
                    "\(entry.fullKey) has \(entry.rawValue.utf8.count) bytes, more than the \(maximumNameBytes) a name may have: \"\(ValueEscaping.bounded(entry.rawValue))\""))
            }
            if let locale = entry.locale {
                translations[locale] = entry.value
            } else {
                value = entry.value
            }
        }
        return .success(value.map { LocalizedText($0, translations: translations) })
    }
}
