import DBus
import Locking
import QuickActionsAPI

/// org.kde.krunner1 exactly as KDE's org.kde.krunner1.xml declares it, served at
/// ``SearchNames/krunnerPath``: Match, Actions, Run, and for the DBus2 API Config and
/// Teardown; also Plasma 6's SetActivationToken, whose token the next Run passes on.
///
/// Match lists the broker's items anew and returns those ``SearchMatcher`` finds, best first:
/// (result id, title, icon name, type, relevance, {subtext, category, actions}). Type is
/// ExactMatch (100) when the title is the whole query, else PossibleMatch (30). Run answers at
/// once (KRunner waits for nothing) and performs the item by its id; a Perform that fails,
/// times out or finds the item gone is reported by ``DesktopNotifier``.
///
/// KF5's XML declares Config's out argument as `{sv}`, which is not a D-Bus type; KRunner
/// reads it as a QVariantMap, `a{sv}`, which is what this serves (KF6's file says so too).
public final class KRunnerRunner: Sendable {
    public static let interfaceName: InterfaceName = "org.kde.krunner1"
    public static let resultLimit = 50
    /// KRunner's QueryMatch types (Plasma::QueryMatch::Type / KRunner::QueryMatch::CategoryRelevance).
    static let exactMatch: Int32 = 100
    static let possibleMatch: Int32 = 30

    let catalog: SearchCatalog
    let matcher: SearchMatcher
    let notifier: DesktopNotifier
    let log: SearchLog
    private let activationToken = Locked<String?>(nil)

    public init(catalog: SearchCatalog, matcher: SearchMatcher, notifier: DesktopNotifier, log: SearchLog) {
        self.catalog = catalog
        self.matcher = matcher
        self.notifier = notifier
        self.log = log
    }

    /// One match as KRunner reads it: (id, text, icon name, type, relevance, properties).
    typealias Match = DBusStruct<String, String, String, Int32, Double, [String: Value]>
    /// One action: (id, text, icon name).
    typealias Action = DBusStruct<String, String, String>

    /// Every method declared with Swift types: the declaration is the signature, the
    /// introspection and the decoding (BridgeInterfaceProofTests checks all three against
    /// KDE's file).
    public func interface() -> Interface {
        Interface(Self.interfaceName, methods: [
            // The interface's handlers keep the runner alive (it holds no reference back).
            Method("Teardown", outputs: ()) { [self] _ in
                activationToken.withLock { $0 = nil }
            },
            Method("Config", outputs: (TypedArgument("config", [String: Value].self))) { _ in
                let config: [String: Value] = ["MinLetterCount": .int32(Int32(2))]
                return config
            },
            Method("Actions", outputs: (TypedArgument("matches", [Action].self))) { _ in [] },
            Method("Run", inputs: TypedArgument("matchId", String.self), TypedArgument("actionId", String.self),
                   outputs: (), deferred: { [self] _, reply, matchID, _ in
                guard let id = ResultID(matchID) else {
                    throw DBusError.invalidArgs("match \"\(matchID.prefix(200))\" is not an <app id>/<item id> this runner returned")
                }
                reply.send()
                let token = activationToken.withLock { current in
                    defer { current = nil }
                    return current
                }
                Task { await run(id, activationToken: token) }
            }),
            Method("Match", inputs: TypedArgument("query", String.self), outputs: (TypedArgument("matches", [Match].self)),
                   async: { [self] _, query in try await match(query) }),
            Method("SetActivationToken", inputs: TypedArgument("token", String.self), outputs: ()) { [self] _, token in
                activationToken.withLock { $0 = token }
            },
        ])
    }

    func match(_ query: String) async throws(DBusError) -> [Match] {
        let entries = try await catalog.refresh()
        let folded = matcher.terms([query]).joined(separator: " ")
        return matcher.search(entries, query: [query], limit: Self.resultLimit).map { match in
            let entry = match.entry
            let exact = matcher.terms([entry.title]).joined(separator: " ") == folded
            let subtext = entry.subtitle.map { "\(entry.appName) — \($0)" } ?? entry.appName
            return Match(entry.resultID, entry.title, Self.iconName(entry), exact ? Self.exactMatch : Self.possibleMatch,
                         match.relevance, [
                            "subtext": .string(subtext),
                            "category": .string(entry.appName),
                            "actions": .array(.string, []),
                         ])
        }
    }

    /// KRunner shows icon names from the theme: the item's, else its app's; a file icon has no name.
    static func iconName(_ entry: SearchEntry) -> String {
        [entry.icon ?? "", entry.appIcon].first { !$0.isEmpty && !$0.hasPrefix("/") } ?? ""
    }

    func run(_ id: ResultID, activationToken: String?) async {
        let entry: SearchEntry?
        do {
            entry = try await catalog.entry(id)
        } catch {
            await notifier.notify(summary: "Quick action not performed", body: "The broker could not be asked: \(error.message)")
            return
        }
        guard let entry else {
            await notifier.notify(summary: "Quick action not performed",
                                  body: "\(id.appID) no longer offers the item \(id.itemID).")
            return
        }
        do {
            let outcome = try await catalog.perform(entry, activationToken: activationToken)
            if !outcome.success {
                await notifier.notify(summary: "\(entry.title) failed",
                                      body: "\(entry.appName): " + (outcome.message ?? "the action reported failure"))
            }
        } catch {
            let reason = error.name == BrokerAPI.ErrorNames.timeout ? "it did not complete in time" : error.message
            await notifier.notify(summary: "\(entry.title) failed", body: "\(entry.appName): \(reason)")
        }
    }
}
