import Foundation

/// The lines a picker is offered, one per item, and which item each stands for.
struct PickMenu: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        let line: String
        let app: String
        let item: Item
        var type: String { item.type }
        var title: String { item.title }
    }

    let entries: [Entry]

    /// "App: Title — Subtitle" per item, every item offered (each is performed by its id);
    /// lines that would be the same get " [app-id item-id]" so every line is unique.
    init(groups: [AppItems], names: [String: String]) {
        var scored: [(entry: Entry, score: Double)] = []
        for group in groups {
            let name = names[group.appID].flatMap { $0.isEmpty ? nil : $0 } ?? group.appID
            for item in group.items {
                var line = "\(name): \(item.title)"
                if let subtitle = item.subtitle, !subtitle.isEmpty { line += " — \(subtitle)" }
                scored.append((Entry(line: DisplayWidth.sanitize(line), app: group.appID, item: item), item.frecency ?? 0))
            }
        }
        // Listed in frecency order, the most used items of every app come first; equal scores
        // (never used) keep the broker's order. (sorted(by:) is not stable: compare positions.)
        let entries = scored.enumerated()
            .sorted { $0.element.score > $1.element.score || ($0.element.score == $1.element.score && $0.offset < $1.offset) }
            .map(\.element.entry)
        var counts: [String: Int] = [:]
        for entry in entries { counts[entry.line, default: 0] += 1 }
        self.entries = entries.map { entry in
            guard counts[entry.line, default: 0] > 1 else { return entry }
            let line = DisplayWidth.sanitize("\(entry.line) [\(entry.app) \(entry.item.id)]")
            return Entry(line: line, app: entry.app, item: entry.item)
        }
    }

    /// The text fed to a picker: one line per entry.
    var input: String {
        entries.map { $0.line + "\n" }.joined()
    }

    /// The entry whose line the picker printed (surrounding whitespace ignored).
    func entry(forOutput output: String) -> Entry? {
        let chosen = output.split(whereSeparator: \.isNewline).first.map {
            String($0).trimmingCharacters(in: .whitespaces)
        }
        guard let chosen, !chosen.isEmpty else { return nil }
        return entries.first { $0.line.trimmingCharacters(in: .whitespaces) == chosen }
    }
}
