// A well-behaved Swift test plugin, written as a plugin author would: no
// unsafe code, threads of its own. Driven by the type of the item performed:
//
//   launch-handled  (at launch) handled in didFinishLaunching, completed from another thread
//   echo-items      from another thread, sets its dynamic items to the request it got
//                   (the item itself, then an item "arguments" whose title is the
//                   activation token, subtitle the resolved icon, user info the arguments)
//   data-directory  writes a file into its data directory and reports the path
//   publish         sets its dynamic items to the "items" argument: an array of dictionaries
//                   with "type", "title" and optionally "id" and "user-info"; completes with
//                   "set <n> items", or fails with the broker's reason
//   show-*          (a type published so) completes with "performed <id> <title> <user info>",
//                   the user info's keys sorted, so a test sees exactly which item it got
//   stored          completes with "stored at init: <type>(<id>),...": what host.shortcutItems
//                   read in init (the items the broker kept, across restarts)
//   host-limits     completes with "host <major>.<minor> limits <items> <type> <id> <title>
//                   <subtitle> <icon> <user info bytes> <depth>", as PluginHost reads them from
//                   the host table, or "host <version> limits absent"
//   never           never calls its completion
//   twice           calls its completion twice
//   anything else   completes from another thread with the calls it has seen
//
// willResignActive sets one dynamic item "resigned".
import Foundation
import QuickActionsSDK

final class SwiftTestPlugin: QuickActionsPlugin {
    let host: PluginHost
    /// The callbacks seen so far; touched only on the plugin's queue.
    private var calls: [String] = []
    /// The stored dynamic items as init read them back.
    private let storedAtInit: [ShortcutItem]

    init(host: PluginHost) throws {
        self.host = host
        storedAtInit = host.shortcutItems
        host.log("swift-plugin: init for \(host.appID)")
    }

    func didFinishLaunching(
        with action: ShortcutAction, completion: @escaping @Sendable (ActionResult) -> Void
    ) -> LaunchDecision {
        calls.append("launch:\(action.item.type)")
        guard action.item.type == "launch-handled" else { return .performAction }
        let summary = calls.joined(separator: ",")
        Thread.detachNewThread { completion(.success("calls=\(summary)")) }
        return .handled
    }

    func perform(_ action: ShortcutAction, completion: @escaping @Sendable (ActionResult) -> Void) {
        calls.append("perform:\(action.item.type)")
        switch action.item.type {
        case "echo-items":
            // The echoed item is a new dynamic item, not the static one performed: no id.
            var item = action.item
            item.id = nil
            let echoed = [
                item,
                ShortcutItem(
                    type: "arguments", title: action.activationToken ?? "(no token)", subtitle: action.resolvedIcon,
                    userInfo: action.arguments),
            ]
            let host = self.host
            Thread.detachNewThread {
                do {
                    try host.setShortcutItems(echoed)
                    completion(.success("set \(echoed.count) items"))
                } catch {
                    completion(.failure("\(error)"))
                }
            }
        case "publish":
            let host = self.host
            let items = Self.items(from: action.arguments["items"])
            Thread.detachNewThread {
                do {
                    try host.setShortcutItems(items)
                    completion(.success("set \(items.count) items"))
                } catch {
                    completion(.failure("\(error)"))
                }
            }
        case let type where type.hasPrefix("show-"):
            let info = action.item.userInfo.keys.sorted().map { "\($0)=\(action.item.userInfo[$0].map(Self.text) ?? "")" }
            completion(.success("performed \(action.item.id ?? "(no id)") \(action.item.title) \(info.joined(separator: ","))"))
        case "data-directory":
            guard let folder = host.dataDirectory else {
                completion(.failure("no data directory"))
                return
            }
            let file = folder.appendingPathComponent("hello.txt")
            do {
                try Data("hello".utf8).write(to: file)
                completion(.success(file.path))
            } catch {
                completion(.failure("cannot write \(file.path): \(error)"))
            }
        case "stored":
            let stored = storedAtInit.map { "\($0.type)(\($0.id ?? "-"))" }.joined(separator: ",")
            completion(.success("stored at init: \(stored)"))
        case "host-limits":
            guard let limits = host.limits else {
                completion(.success("host \(host.hostABIVersion) limits absent"))
                return
            }
            let figures = [
                limits.maximumItems, limits.maximumTypeBytes, limits.maximumIDBytes, limits.maximumTitleBytes,
                limits.maximumSubtitleBytes, limits.maximumIconBytes, limits.maximumUserInfoBytes,
                limits.maximumUserInfoDepth,
            ]
            completion(.success("host \(host.hostABIVersion) limits \(figures.map(String.init).joined(separator: " "))"))
        case "never":
            break
        case "twice":
            completion(.success("first"))
            completion(.failure("second"))
        default:
            let summary = calls.joined(separator: ",")
            Thread.detachNewThread { completion(.success("calls=\(summary)")) }
        }
    }

    /// The "items" argument of "publish" as items.
    private static func items(from value: UserInfoValue?) -> [ShortcutItem] {
        guard case .array(let list)? = value else { return [] }
        return list.compactMap { element -> ShortcutItem? in
            guard case .dictionary(let fields) = element, case .string(let type)? = fields["type"],
                  case .string(let title)? = fields["title"] else { return nil }
            var id: String?
            if case .string(let given)? = fields["id"] { id = given }
            var userInfo: UserInfo = [:]
            if case .dictionary(let info)? = fields["user-info"] { userInfo = info }
            return ShortcutItem(type: type, title: title, userInfo: userInfo, id: id)
        }
    }

    private static func text(_ value: UserInfoValue) -> String {
        switch value {
        case .string(let text): text
        case .int(let number): String(number)
        default: "\(value)"
        }
    }

    func willResignActive() {
        host.shortcutItems = [ShortcutItem(type: "resigned", title: "Resigned", icon: .symbol("heart"))]
    }
}

@_cdecl("quickactions_plugin_entry")
public func quickActionsPluginEntry() -> PluginEntry { PluginEntry(SwiftTestPlugin.self) }
