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

    /// A result's meta, an a{sv} in the order the fields are built.
    typealias Meta = ValueOf<[String: Value]>

    /// Every method declared with Swift types: the declaration is the signature, the
    /// introspection and the decoding (BridgeInterfaceProofTests checks all three against
    /// gnome-shell's file).
    public func interface() -> Interface {
        Interface(Self.interfaceName, methods: [
            Method("GetInitialResultSet", inputs: TypedArgument("terms", [String].self),
                   outputs: (TypedArgument("results", [String].self)),
                   async: { _, terms in try await initialResults(terms: terms) }),
            Method("GetSubsearchResultSet",
                   inputs: TypedArgument("previous_results", [String].self), TypedArgument("terms", [String].self),
                   outputs: (TypedArgument("results", [String].self)),
                   async: { _, previous, terms in try await subsearchResults(previous: previous, terms: terms) }),
            Method("GetResultMetas", inputs: TypedArgument("identifiers", [String].self),
                   outputs: (TypedArgument("metas", [Meta].self)),
                   async: { _, identifiers in try await resultMetas(identifiers) }),
            Method("ActivateResult",
                   inputs: TypedArgument("identifier", String.self), TypedArgument("terms", [String].self),
                   TypedArgument("timestamp", UInt32.self),
                   outputs: (), async: { _, identifier, _, timestamp in try await activate(identifier, timestamp: timestamp) }),
            Method("LaunchSearch", inputs: TypedArgument("terms", [String].self), TypedArgument("timestamp", UInt32.self),
                   outputs: ()) { _, _, _ in },
        ])
    }

    func initialResults(terms: [String]) async throws(DBusError) -> [String] {
        let entries = try await catalog.refresh()
        return matcher.search(entries, query: terms, limit: Self.resultLimit).map(\.entry.resultID)
    }

    func subsearchResults(previous: [String], terms: [String]) async throws(DBusError) -> [String] {
        let allowed = Set(previous)
        let entries = try await catalog.current().filter { allowed.contains($0.resultID) }
        return matcher.search(entries, query: terms, limit: Self.resultLimit).map(\.entry.resultID)
    }

    /// Metas of the identifiers this provider knows, in the order asked; the broker is asked
    /// again (once) only when the last listing lacks some.
    func resultMetas(_ identifiers: [String]) async throws(DBusError) -> [Meta] {
        let wanted = identifiers.prefix(Self.resultLimit * 4)
        var entries = try await catalog.current()
        if wanted.contains(where: { id in ResultID(id) != nil && !entries.contains { $0.resultID == id } }) {
            entries = try await catalog.refresh()
        }
        let byID = Dictionary(entries.map { ($0.resultID, $0) }, uniquingKeysWith: { first, _ in first })
        var metas: [Meta] = []
        for entry in wanted.compactMap({ byID[$0] }) {
            metas.append(try Meta(Self.meta(entry)))
        }
        return metas
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

    func activate(_ identifier: String, timestamp: UInt32 = 0) async throws(DBusError) {
        guard let id = ResultID(identifier) else {
            throw DBusError.invalidArgs("result \"\(identifier.prefix(200))\" is not an <app id>/<item id> this provider returned")
        }
        guard let entry = try await catalog.entry(id) else {
            throw DBusError(BrokerAPI.ErrorNames.unknownItem,
                            "application \"\(id.appID.prefix(255))\" has no current item with id \"\(id.itemID.prefix(200))\"")
        }
        let outcome = try await catalog.perform(entry, timestamp: timestamp)
        if !outcome.success {
            log(.warning, "GNOME Shell activated \"\(entry.title)\" of \(entry.appID): the plugin reported failure"
                + (outcome.message.map { ": \($0)" } ?? ""))
        }
    }
}
