import DBus
import QuickActionsAPI

/// org.gnome.Shell.SearchProvider2, exactly as gnome-shell's org.gnome.ShellSearchProvider2.xml
/// declares it, served at ``SearchNames/gnomeShellPath``.
///
/// Results are every app's items matched by ``SearchMatcher``; their ids are ``ResultID``s.
/// Metas carry `id`, `name` (the title), `description` ("App — subtitle", or the app's name)
/// and `icon` (a serialised GIcon: the item's icon, else its app's; absent when neither has
/// one). ActivateResult performs the item by its id and answers once the plugin completed;
/// a failure is answered as a D-Bus error (GNOME Shell logs it).
///
/// LaunchSearch does nothing: `quickactions pick` takes no search terms and, started by the
/// shell without a terminal, would need a graphical picker GNOME does not ship (rofi, fuzzel
/// or dmenu); the overview already shows every matching item. Documented in docs/search.md.
public struct GnomeShellSearchProvider: Sendable {
    public static let interfaceName: InterfaceName = "org.gnome.Shell.SearchProvider2"
    /// The most results one search returns (GNOME shows a handful per provider).
    public static let resultLimit = 50

    let catalog: SearchCatalog
    let matcher: SearchMatcher
    let log: SearchLog

    public init(catalog: SearchCatalog, matcher: SearchMatcher, log: SearchLog) {
        self.catalog = catalog
        self.matcher = matcher
        self.log = log
    }

    public func interface() -> Interface {
        let strings = DBusType.array(.string)
        return Interface(Self.interfaceName, methods: [
            Method("GetInitialResultSet", inputs: [Argument("terms", strings)], outputs: [Argument("results", strings)],
                   handler: .async { call in
                [try await initialResults(terms: Self.strings(call.arguments[0]))]
            }),
            Method("GetSubsearchResultSet",
                   inputs: [Argument("previous_results", strings), Argument("terms", strings)],
                   outputs: [Argument("results", strings)],
                   handler: .async { call in
                [try await subsearchResults(previous: Self.strings(call.arguments[0]), terms: Self.strings(call.arguments[1]))]
            }),
            Method("GetResultMetas", inputs: [Argument("identifiers", strings)],
                   outputs: [Argument("metas", .array(.dictionary(key: .string, value: .variant)))],
                   handler: .async { call in
                [try await resultMetas(Self.strings(call.arguments[0]))]
            }),
            Method("ActivateResult",
                   inputs: [Argument("identifier", .string), Argument("terms", strings), Argument("timestamp", .uint32)],
                   handler: .async { call in
                guard case .string(let identifier) = call.arguments[0] else { return [] }
                try await activate(identifier)
                return []
            }),
            Method("LaunchSearch", inputs: [Argument("terms", strings), Argument("timestamp", .uint32)]) { _ in [] },
        ])
    }

    func initialResults(terms: [String]) async throws(DBusError) -> Value {
        let entries = try await catalog.refresh()
        let matches = matcher.search(entries, query: terms, limit: Self.resultLimit)
        return .array(.string, matches.map { .string($0.entry.resultID) })
    }

    func subsearchResults(previous: [String], terms: [String]) async throws(DBusError) -> Value {
        let allowed = Set(previous)
        let entries = try await catalog.current().filter { allowed.contains($0.resultID) }
        let matches = matcher.search(entries, query: terms, limit: Self.resultLimit)
        return .array(.string, matches.map { .string($0.entry.resultID) })
    }

    /// Metas of the identifiers this provider knows, in the order asked; the broker is asked
    /// again (once) only when the last listing lacks some.
    func resultMetas(_ identifiers: [String]) async throws(DBusError) -> Value {
        let metaType = DBusType.dictionary(key: .string, value: .variant)
        let wanted = identifiers.prefix(Self.resultLimit * 4)
        var entries = try await catalog.current()
        if wanted.contains(where: { id in ResultID(id) != nil && !entries.contains { $0.resultID == id } }) {
            entries = try await catalog.refresh()
        }
        let byID = Dictionary(entries.map { ($0.resultID, $0) }, uniquingKeysWith: { first, _ in first })
        return .array(metaType, wanted.compactMap { byID[$0].map(Self.meta) })
    }

    static func meta(_ entry: SearchEntry) -> Value {
        func field(_ key: String, _ value: Value) -> DictionaryEntry { DictionaryEntry(.string(key), .variant(value)) }
        var fields = [field("id", .string(entry.resultID)), field("name", .string(entry.title))]
        let description = entry.subtitle.map { "\(entry.appName) — \($0)" } ?? entry.appName
        fields.append(field("description", .string(description)))
        if let icon = SearchIcon.name(for: entry) {
            fields.append(field("icon", SearchIcon.serializedGIcon(icon)))
        }
        return .dictionary(key: .string, value: .variant, fields)
    }

    func activate(_ identifier: String) async throws(DBusError) {
        guard let id = ResultID(identifier) else {
            throw DBusError.invalidArgs("result \"\(identifier.prefix(200))\" is not an <app id>/<item id> this provider returned")
        }
        guard let entry = try await catalog.entry(id) else {
            throw DBusError(BrokerAPI.ErrorNames.unknownItem,
                            "application \"\(id.appID.prefix(255))\" has no current item with id \"\(id.itemID.prefix(200))\"")
        }
        let outcome = try await catalog.perform(entry)
        if !outcome.success {
            log(.warning, "GNOME Shell activated \"\(entry.title)\" of \(entry.appID): the plugin reported failure"
                + (outcome.message.map { ": \($0)" } ?? ""))
        }
    }

    static func strings(_ value: Value) -> [String] {
        guard case .array(_, let elements) = value else { return [] }
        return elements.compactMap(\.string)
    }
}
