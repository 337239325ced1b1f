/// One of an app's items as its desktop entry action shows it.
public struct ActionItem: Sendable, Equatable {
    /// The broker's `id` of the item: what the action performs.
    public var itemID: String
    public var type: String
    /// The title in the default locale (`Name=`).
    public var title: String
    /// The title per key locale (`Name[de]=`), one per language of the bundle.
    public var localizedTitles: [(locale: String, title: String)]
    /// A freedesktop icon name or an absolute file path.
    public var icon: String?

    public init(itemID: String, type: String, title: String, localizedTitles: [(locale: String, title: String)] = [], icon: String? = nil) {
        self.itemID = itemID
        self.type = type
        self.title = title
        self.localizedTitles = localizedTitles
        self.icon = icon
    }

    public static func == (lhs: ActionItem, rhs: ActionItem) -> Bool {
        lhs.itemID == rhs.itemID && lhs.type == rhs.type && lhs.title == rhs.title && lhs.icon == rhs.icon
            && lhs.localizedTitles.map(\.locale) == rhs.localizedTitles.map(\.locale)
            && lhs.localizedTitles.map(\.title) == rhs.localizedTitles.map(\.title)
    }
}

/// Builds the desktop entries the bridge writes: a copy of an app's own entry with its items
/// added as actions, or an entry of our own for an app without one. Pure: no files, no bus.
///
/// Every value from a plugin or a user goes through ``ValueEscaping`` (titles, icons) or
/// ``ExecCommandLine`` (ids and types, as arguments), and every action id is ours
/// (`quickactions-1`, `quickactions-2`, …), so no title or id can add a key, a group, an action
/// or an argument. An item whose id or type a desktop entry cannot carry exactly (a control
/// character) is left out and reported.
public struct EntryComposer: Sendable {
    /// The `quickactions` command: an absolute path or a name looked up in `$PATH`.
    public let command: String

    public init(command: String) {
        self.command = command
    }

    /// An item left out, and why.
    public struct Skipped: Sendable, Equatable, CustomStringConvertible {
        public let itemID: String
        public let reason: String
        public var description: String { "item \"\(ValueEscaping.bounded(itemID))\" left out: \(reason)" }
    }

    /// Our action ids start with this.
    public static let actionPrefix = "quickactions-"

    /// The command line of the action performing `item` of `app`:
    /// `quickactions invoke --id=<item id> -- <app id> <type>`.
    public func invocation(app: String, item: ActionItem) -> [String] {
        [command, "invoke", "--id=\(item.itemID)", "--", app, item.type]
    }

    /// The main `Exec` of a generated entry: the app's items in `quickactions pick`.
    public func pickInvocation(app: String) -> [String] {
        [command, "pick", app]
    }

    /// `original` with the items added as actions after its own, every other line kept.
    public func copy(of original: DesktopEntryFile, app: String, items: [ActionItem]) -> (file: DesktopEntryFile, skipped: [Skipped]) {
        var file = original
        let ownActions = original.main.flatMap { $0.entries.last { $0.key == "Actions" && $0.locale == nil } }
            .map { ValueEscaping.unescapeList($0.rawValue) } ?? []
        let taken = Set(ownActions).union(
            original.groups.compactMap { $0.name.hasPrefix(DesktopEntryFile.actionGroupPrefix) ? String($0.name.dropFirst(DesktopEntryFile.actionGroupPrefix.count)) : nil })
        let (groups, skipped) = actionGroups(app: app, items: items, taken: taken)
        let ids = ownActions + groups.map { String($0.name.dropFirst(DesktopEntryFile.actionGroupPrefix.count)) }
        file.modifyGroup(DesktopEntryFile.mainGroup) { main in
            // Our ids are safe characters and the original's were read from a list: both escape.
            main.set("Actions", rawValue: (try? ValueEscaping.escapeList(ids)) ?? "")
        }
        file.groups += groups
        return (file, skipped)
    }

    /// An entry of our own for an app without one: named and iconed from its bundle; its main
    /// `Exec` offers the app's items in `quickactions pick`.
    /// - Parameter localizedNames: the app's name per key locale (`Name[de]=`).
    public func generated(
        app: String, name: String, localizedNames: [(locale: String, name: String)] = [], icon: String?, items: [ActionItem]
    ) -> (file: DesktopEntryFile, skipped: [Skipped]) {
        var main = DesktopEntryFile.Group(name: DesktopEntryFile.mainGroup)
        main.append(.init(key: "Type", rawValue: "Application"))
        // 1.4, not 1.5: desktop-file-validate of Debian 12 (0.26) knows no 1.5, and we use nothing newer.
        main.append(.init(key: "Version", rawValue: "1.4"))
        let name = name.isEmpty ? app : name
        main.append(.init(key: "Name", rawValue: Self.escapedDisplayText(name)))
        for (locale, localized) in localizedNames {
            main.append(.init(key: "Name", locale: locale, rawValue: Self.escapedDisplayText(localized.isEmpty ? name : localized)))
        }
        if let icon = icon.flatMap(Self.escapedIcon) {
            main.append(.init(key: "Icon", rawValue: icon))
        }
        // The app id is an AppID (letters, digits, '.', '-', '_'), so this cannot fail; if it
        // ever did, the entry would have no main command rather than a wrong one.
        if let exec = try? ExecCommandLine(pickInvocation(app: app)), let value = try? ValueEscaping.escape(exec.value) {
            main.append(.init(key: "Exec", rawValue: value))
        }
        main.append(.init(key: "Terminal", rawValue: "false"))
        let (groups, skipped) = actionGroups(app: app, items: items, taken: [])
        main.append(.init(
            key: "Actions",
            rawValue: (try? ValueEscaping.escapeList(groups.map { String($0.name.dropFirst(DesktopEntryFile.actionGroupPrefix.count)) })) ?? ""))
        return (DesktopEntryFile(groups: [main] + groups), skipped)
    }

    /// One `[Desktop Action quickactions-N]` group per item, in order, numbered past `taken`.
    func actionGroups(app: String, items: [ActionItem], taken: Set<String>) -> ([DesktopEntryFile.Group], [Skipped]) {
        var groups: [DesktopEntryFile.Group] = []
        var skipped: [Skipped] = []
        var number = 0
        for item in items {
            let exec: String
            do {
                let line = try ExecCommandLine(invocation(app: app, item: item))
                // What we write must read back as exactly what we meant.
                guard try ExecCommandLine.parse(line.value) == line.arguments else {
                    skipped.append(Skipped(itemID: item.itemID, reason: "its command line does not read back as written"))
                    continue
                }
                exec = try ValueEscaping.escape(line.value)
            } catch {
                skipped.append(Skipped(itemID: item.itemID, reason: "\(error)"))
                continue
            }
            var id: String
            repeat {
                number += 1
                id = Self.actionPrefix + String(number)
            } while taken.contains(id)
            var group = DesktopEntryFile.Group(name: DesktopEntryFile.actionGroupPrefix + id)
            let title = item.title.isEmpty ? item.type : item.title
            group.append(.init(key: "Name", rawValue: Self.escapedDisplayText(title)))
            for (locale, localized) in item.localizedTitles {
                group.append(.init(key: "Name", locale: locale, rawValue: Self.escapedDisplayText(localized.isEmpty ? title : localized)))
            }
            if let icon = item.icon.flatMap(Self.escapedIcon) {
                group.append(.init(key: "Icon", rawValue: icon))
            }
            group.append(.init(key: "Exec", rawValue: exec))
            groups.append(group)
        }
        return (groups, skipped)
    }

    /// Display text escaped; a control character other than newline, tab and carriage return
    /// (which a desktop entry cannot hold) shows as U+FFFD.
    static func escapedDisplayText(_ text: String) -> String {
        var clean = ""
        for scalar in text.unicodeScalars {
            let control = (scalar.value < 0x20 || scalar.value == 0x7F) && scalar != "\n" && scalar != "\t" && scalar != "\r"
            clean.unicodeScalars.append(control ? "\u{FFFD}" : scalar)
        }
        return (try? ValueEscaping.escape(clean)) ?? ""
    }

    /// An icon name or absolute path, escaped; nil for an empty one or one a desktop entry
    /// cannot hold.
    static func escapedIcon(_ icon: String) -> String? {
        guard !icon.isEmpty else { return nil }
        return try? ValueEscaping.escape(icon)
    }
}
