// A Swift test plugin that keeps rewriting its dynamic items, for the crash
// tests: a kill -9 of the broker at any moment must leave each app's stored
// list complete, old or new. Driven by the type of the item performed:
//
//   churn  starts (once per process) a thread that sets version after
//          version of the dynamic list, from the `from` argument (an
//          integer, default 0) plus one. Before each version it records
//          "<iteration> <version>" (`iteration` argument) in the file
//          `attempt` of its data directory, replaced atomically; so after a
//          crash the stored list must be that version or the one before.
//          Completes at once with "churning from <from>".
//   nest   sets one dynamic item whose user info is nested `depth` levels
//          (an argument; ItemLimits counts the user-info dictionary as level
//          1) and completes with "nested <depth>", or fails with why the
//          broker refused it.
//
// Version v has 1 + v % 5 items; item i has type "v<v>.<i>", title
// "version <v> item <i> of <n>" and user info {version, index, count}, so a
// list mixed from two versions, cut short or reordered shows at once.
import Foundation
import QuickActionsSDK

final class ChurnPlugin: QuickActionsPlugin {
    let host: PluginHost
    /// Whether the churn thread runs; touched only on the plugin's queue.
    private var churning = false

    init(host: PluginHost) throws {
        self.host = host
    }

    func perform(_ action: ShortcutAction, completion: @escaping @Sendable (ActionResult) -> Void) {
        switch action.item.type {
        case "churn":
            let from = Self.integer(action.arguments["from"]) ?? 0
            guard !churning else {
                completion(.success("already churning"))
                return
            }
            guard let folder = host.dataDirectory else {
                completion(.failure("no data directory"))
                return
            }
            churning = true
            let iteration = Self.integer(action.arguments["iteration"]) ?? 0
            let host = self.host
            Thread.detachNewThread {
                Self.churn(host: host, from: from, iteration: iteration, marker: folder.appendingPathComponent("attempt"))
            }
            completion(.success("churning from \(from)"))
        case "nest":
            let depth = Self.integer(action.arguments["depth"]) ?? 2
            var deep = UserInfoValue.int(1)
            for _ in 0..<max(0, depth - 2) { deep = .array([deep]) }
            do {
                try host.setShortcutItems([ShortcutItem(type: "nested", title: "Nested", userInfo: ["deep": deep])])
                completion(.success("nested \(depth)"))
            } catch {
                completion(.failure("\(error)"))
            }
        default:
            completion(.failure("churn has no action \(action.item.type)"))
        }
    }

    /// The items of one version.
    static func items(version: Int64) -> [ShortcutItem] {
        let count = 1 + version % 5
        return (0..<count).map { index in
            ShortcutItem(
                type: "v\(version).\(index)", title: "version \(version) item \(index) of \(count)",
                userInfo: ["version": .int(version), "index": .int(index), "count": .int(count)])
        }
    }

    private static func churn(host: PluginHost, from: Int64, iteration: Int64, marker: URL) {
        var version = from
        while true {
            version += 1
            do {
                try Data("\(iteration) \(version)\n".utf8).write(to: marker, options: .atomic)
                try host.setShortcutItems(items(version: version))
            } catch {
                host.log("churn: stopped at version \(version): \(error)", level: .warning)
                return
            }
            usleep(500)
        }
    }

    private static func integer(_ value: UserInfoValue?) -> Int64? {
        if case .int(let number)? = value { return number }
        return nil
    }
}

@_cdecl("quickactions_plugin_entry")
public func quickActionsPluginEntry() -> PluginEntry { PluginEntry(ChurnPlugin.self) }
