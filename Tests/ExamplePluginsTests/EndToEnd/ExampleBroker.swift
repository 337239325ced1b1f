import Foundation
import QuickActionsTestSupport

/// Every example assembled by `quickactions-bundle` into a plugin directory, and a real
/// `quickactionsd` on a private bus reading it; driven with busctl, as a user would.
struct ExampleBroker {
    let examples: AssembledExamples
    let harness: BrokerHarness

    static let contacts = "com.example.contacts"
    static let stacks = "com.example.stacks"
    static let music = "com.example.music"
    static let favorites = "com.example.favorites"

    init() async throws {
        examples = try await AssembledExamples()
        do {
            harness = try await BrokerHarness(arguments: ["--plugins", examples.directory.path])
        } catch {
            examples.remove()
            throw error
        }
    }

    /// Stops the broker and its bus, and removes every folder.
    func stop() {
        harness.stop()
        examples.remove()
    }

    /// One item as busctl shows GetItems' `a{sv}`.
    struct Item: CustomStringConvertible {
        var fields: [String: Any]

        func string(_ key: String) -> String? { (fields[key] as? [String: Any])?["data"] as? String }
        var type: String { string("type") ?? "?" }
        var id: String { string("id") ?? "?" }
        var title: String { string("title") ?? "?" }
        var subtitle: String? { string("subtitle") }
        var icon: String? { string("icon") }
        var origin: String { string("origin") ?? "?" }
        /// The user info's string values.
        var userInfoStrings: [String: String] {
            let info = (fields["user-info"] as? [String: Any])?["data"] as? [String: Any] ?? [:]
            return info.compactMapValues { ($0 as? [String: Any])?["data"] as? String }
        }
        /// "type/origin", for comparing whole lists at a glance.
        var summary: String { "\(type)/\(origin)" }
        var description: String { "\(summary) \"\(title)\" \"\(subtitle ?? "-")\" \(icon ?? "-")" }
    }

    /// GetItems(app, {locale}) through busctl.
    func items(_ app: String, locale: String? = nil) async throws -> [Item] {
        let options = locale.map { ["1", "locale", "s", $0] } ?? ["0"]
        let reply = try Self.json(try await harness.call("GetItems", "sa{sv}", [app] + options))
        guard let items = reply.first as? [Any] else { throw TestSupportError("GetItems returned \(reply)") }
        return try items.map { any in
            guard let fields = any as? [String: Any] else { throw TestSupportError("an item is \(any)") }
            return Item(fields: fields)
        }
    }

    /// What Perform answered.
    struct Performed: Equatable, CustomStringConvertible {
        var success: Bool
        var message: String?
        var activation: String?
        var description: String { "\(success) \(message ?? "-") (\(activation ?? "-"))" }
    }

    /// A caller argument for Perform's `arguments` option, in busctl's notation.
    enum Argument {
        case string(String, String)
        case bool(String, Bool)

        var busctl: [String] {
            switch self {
            case .string(let key, let value): return [key, "s", value]
            case .bool(let key, let value): return [key, "b", value ? "true" : "false"]
            }
        }
    }

    /// Perform(app, type, {item-id, locale, arguments}) through busctl.
    func perform(
        _ app: String, _ type: String, itemID: String? = nil, locale: String? = nil, arguments: [Argument] = []
    ) async throws -> Performed {
        var options: [String] = []
        var count = 0
        if let itemID {
            options += ["item-id", "s", itemID]
            count += 1
        }
        if let locale {
            options += ["locale", "s", locale]
            count += 1
        }
        if !arguments.isEmpty {
            options += ["arguments", "a{sv}", "\(arguments.count)"] + arguments.flatMap(\.busctl)
            count += 1
        }
        let reply = try Self.json(try await harness.call("Perform", "ssa{sv}", [app, type, "\(count)"] + options))
        guard reply.count == 2, let success = reply[0] as? Bool, let result = reply[1] as? [String: Any] else {
            throw TestSupportError("Perform returned \(reply)")
        }
        func string(_ key: String) -> String? { (result[key] as? [String: Any])?["data"] as? String }
        return Performed(success: success, message: string("message"), activation: string("activation"))
    }

    /// The `Loaded` property of the app's object.
    func isLoaded(_ app: String) async throws -> Bool {
        let result = try await harness.busctl([
            "get-property", BrokerHarness.busName, "/org/quickactions/Broker1/apps/\(Self.escaped(app))",
            "org.quickactions.Application1", "Loaded",
        ])
        switch result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) {
        case "b true": return true
        case "b false": return false
        default: throw TestSupportError("Loaded of \(app): \(result)")
        }
    }

    /// sd-bus's object path escaping of an app id.
    static func escaped(_ app: String) -> String {
        app.utf8.map { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                return String(UnicodeScalar(byte))
            default:
                return "_" + String(byte, radix: 16).leftPadded(to: 2)
            }
        }.joined()
    }

    /// The `data` array of busctl's --json=short reply.
    static func json(_ result: CommandResult) throws -> [Any] {
        guard result.status == 0 else { throw TestSupportError("busctl failed: \(result)") }
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        guard let data = object?["data"] as? [Any] else { throw TestSupportError("busctl printed \(result.stdout)") }
        return data
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
