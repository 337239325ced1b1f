// A Swift test plugin that publishes dynamic items with whatever titles a test gives it, for
// the desktop-entry bridge's tests (hostile titles: newlines, groups, Exec=, quotes, $(…)).
//
//   set      the `titles` argument (a string: a JSON array of strings) becomes the dynamic
//            list: item i has type "hostile", that title and user info {index: i}. Completes
//            with "set <n>".
//   hostile  appends "<index>\n" to the file `performed` in the data directory, and
//            completes with "performed <index>: <title>". So a test sees exactly which items
//            were performed, each once, and nothing else.
import Foundation
import QuickActionsSDK

final class TitlesPlugin: QuickActionsPlugin {
    let host: PluginHost

    init(host: PluginHost) throws {
        self.host = host
    }

    func perform(_ action: ShortcutAction, completion: @escaping @Sendable (ActionResult) -> Void) {
        switch action.item.type {
        case "set":
            guard case .string(let json)? = action.arguments["titles"],
                  let titles = try? JSONDecoder().decode([String].self, from: Data(json.utf8))
            else {
                completion(.failure("set needs a titles argument: a JSON array of strings"))
                return
            }
            let items = titles.enumerated().map { index, title in
                ShortcutItem(type: "hostile", title: title, userInfo: ["index": .int(Int64(index))])
            }
            do {
                try host.setShortcutItems(items)
                completion(.success("set \(items.count)"))
            } catch {
                completion(.failure("\(error)"))
            }
        case "hostile":
            guard case .int(let index)? = action.item.userInfo["index"], let folder = host.dataDirectory else {
                completion(.failure("a hostile item without an index, or no data directory"))
                return
            }
            let log = folder.appendingPathComponent("performed")
            do {
                let handle = try FileHandle(forWritingTo: log.creatingIfMissing())
                defer { try? handle.close() }
                try handle.seekToEnd()
                try handle.write(contentsOf: Data("\(index)\n".utf8))
            } catch {
                completion(.failure("cannot record the perform in \(log.path): \(error)"))
                return
            }
            completion(.success("performed \(index): \(action.item.title)"))
        default:
            completion(.failure("titles has no action \(action.item.type)"))
        }
    }
}

extension URL {
    fileprivate func creatingIfMissing() -> URL {
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        return self
    }
}

@_cdecl("quickactions_plugin_entry")
public func quickActionsPluginEntry() -> PluginEntry { PluginEntry(TitlesPlugin.self) }
