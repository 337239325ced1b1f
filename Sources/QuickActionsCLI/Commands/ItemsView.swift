import QuickActionsAPI

/// How apps and items look on a terminal: aligned columns fitted to the width.
enum ItemsView {
    /// The item columns `list` and `watch` show.
    static func itemColumns() -> [Table.Column] {
        [
            Table.Column("TITLE", flexible: true),
            Table.Column("SUBTITLE", flexible: true, dropRank: 1, style: { $0.dim($1) }),
            Table.Column("ID", keepsWhole: true),
            Table.Column("ICON", dropRank: 2, style: { $0.dim($1) }),
            Table.Column("ORIGIN", dropRank: 3, style: { style, text in text == ItemKey.Origin.dynamic ? style.cyan(text) : text }),
        ]
    }

    static func cells(_ item: Item) -> [String] {
        [item.title, item.subtitle ?? "", item.id, iconLabel(item.icon), item.origin]
    }

    /// An icon as a column shows it: a themed name as it is, a file by its name alone (its
    /// folder is the bundle's, and would push everything else off an 80-column line).
    static func iconLabel(_ icon: String?) -> String {
        guard let icon else { return "" }
        guard icon.hasPrefix("/"), let name = icon.split(separator: "/").last else { return icon }
        return String(name)
    }

    /// Items grouped under a heading per app: "Name (app-id)".
    static func groups(_ groups: [AppItems], names: [String: String], terminal: Terminal) -> [String] {
        var table = Table(columns: itemColumns(), indent: 2)
        for group in groups {
            let name = names[group.appID].flatMap { $0.isEmpty ? nil : $0 }
            table.addHeading(name.map { "\($0) (\(group.appID))" } ?? group.appID)
            if group.items.isEmpty {
                table.rows.append(.cells(["(no items)"]))
            }
            for item in group.items {
                table.add(cells(item))
            }
        }
        return table.render(width: terminal.width, style: Style(enabled: terminal.colour))
    }

    /// One app's items without heading, indented (for `watch`).
    static func items(_ items: [Item], terminal: Terminal) -> [String] {
        var table = Table(columns: itemColumns(), indent: 2, showsHeader: false)
        for item in items {
            table.add(cells(item))
        }
        return table.render(width: terminal.width, style: Style(enabled: terminal.colour))
    }

    /// The apps table of `apps`.
    static func applications(_ apps: [Application], terminal: Terminal) -> [String] {
        var table = Table(columns: [
            Table.Column("ID"),
            Table.Column("NAME", flexible: true),
            Table.Column("VERSION"),
            Table.Column("LOADED", style: { style, text in text == "yes" ? style.green(text) : style.dim(text) }),
        ])
        for app in apps {
            table.add([app.id, app.name, app.version ?? "", app.loaded.map { $0 ? "yes" : "no" } ?? ""])
        }
        return table.render(width: terminal.width, style: Style(enabled: terminal.colour))
    }
}
