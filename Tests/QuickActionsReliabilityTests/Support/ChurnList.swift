import DBus
import QuickActionsAPI
import Foundation
import QuickActionsModel

/// The Churn plugin's lists (Tests/Plugins/Churn): version v has 1 + v % 5
/// items; item i is "v<v>.<i>", titled "version <v> item <i> of <n>", with
/// user info {version, index, count}.
enum ChurnList {
    /// The version of a complete list; nil for no list; a problem when the
    /// list is not one complete version.
    static func version(of items: [(type: String, title: String, info: [String: Int64])]) -> Result<Int64?, ChurnError> {
        guard let first = items.first else { return .success(nil) }
        guard let version = first.info["version"] else { return .failure(ChurnError("no version in \(first)")) }
        let count = 1 + version % 5
        guard items.count == count else {
            return .failure(ChurnError("version \(version) has \(count) items, the list has \(items.count): \(items.map(\.type))"))
        }
        for (index, item) in items.enumerated() {
            let expected = "version \(version) item \(index) of \(count)"
            guard item.type == "v\(version).\(index)", item.title == expected,
                  item.info == ["version": version, "index": Int64(index), "count": count] else {
                return .failure(ChurnError("item \(index) is not part of version \(version): \(item)"))
            }
        }
        return .success(version)
    }

    /// The dynamic items of a GetItems answer in the form `version(of:)` reads.
    static func dynamic(_ items: [[String: Value]]) -> [(type: String, title: String, info: [String: Int64])] {
        items.filter { $0[ItemKey.origin]?.string == ItemKey.Origin.dynamic }.map { item in
            var info: [String: Int64] = [:]
            for (key, value) in item[ItemKey.userInfo]?.dictionary ?? [:] {
                if let key = key.string, let number = value.unwrappedVariant.int64 { info[key] = number }
            }
            return (item[ItemKey.type]?.string ?? "", item[ItemKey.title]?.string ?? "", info)
        }
    }

    /// Stored items (read from the store's file) in the form `version(of:)` reads.
    static func stored(_ items: [ShortcutItem]) -> [(type: String, title: String, info: [String: Int64])] {
        items.map { item in
            var info: [String: Int64] = [:]
            for (key, value) in item.userInfo {
                if case .int(let number) = value { info[key] = number }
            }
            return (item.type, item.title, info)
        }
    }

    /// The plugin's record of the version it was about to set: (iteration, version).
    static func attempt(stateDirectory: URL, appID: String) -> (iteration: Int64, version: Int64)? {
        let file = stateDirectory.appendingPathComponent("data").appendingPathComponent(appID).appendingPathComponent("attempt")
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        let fields = text.split(whereSeparator: \.isWhitespace).compactMap { Int64($0) }
        guard fields.count == 2 else { return nil }
        return (fields[0], fields[1])
    }
}

struct ChurnError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
