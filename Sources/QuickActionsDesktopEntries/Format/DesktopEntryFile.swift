/// A desktop entry file as written, line by line: every group, key, comment and blank line of
/// the original is kept, in order and byte for byte, so a copy of a package's entry differs from
/// it only where we change it (the spec: an implementation that rewrites a file must keep every
/// field it does not know).
public struct DesktopEntryFile: Sendable, Equatable {
    /// One `Key=value` or `Key[locale]=value` line.
    public struct Entry: Sendable, Equatable {
        /// The key without its locale.
        public var key: String
        /// The locale in brackets, if any (`de`, `sr@latin`, `pt_BR`).
        public var locale: String?
        /// The value as written after `=` (escapes not undone), leading spaces removed.
        public var rawValue: String
        /// The line as read, kept so an unchanged entry is written back exactly; nil for new entries.
        var originalLine: String?

        public init(key: String, locale: String? = nil, rawValue: String) {
            self.key = key
            self.locale = locale
            self.rawValue = rawValue
        }

        /// The value with its escapes undone.
        public var value: String { ValueEscaping.unescape(rawValue) }

        /// `Key` or `Key[locale]`.
        public var fullKey: String { locale.map { "\(key)[\($0)]" } ?? key }

        var line: String { originalLine ?? "\(fullKey)=\(rawValue)" }
    }

    /// A line: an entry, or a comment or blank line kept as written.
    public enum Line: Sendable, Equatable {
        case entry(Entry)
        case comment(String)
    }

    /// `[Name]` and its lines up to the next group.
    public struct Group: Sendable, Equatable {
        public var name: String
        public var lines: [Line]

        public init(name: String, lines: [Line] = []) {
            self.name = name
            self.lines = lines
        }

        /// Every entry, in file order.
        public var entries: [Entry] {
            lines.compactMap { if case .entry(let entry) = $0 { return entry } else { return nil } }
        }

        /// The unlocalised value of `key`, escapes undone; the last one wins, as in GLib.
        public func value(_ key: String) -> String? {
            lastEntry(key)?.value
        }

        /// The last unlocalised entry of `key`, found without building ``entries``.
        public func lastEntry(_ key: String) -> Entry? {
            for line in lines.reversed() {
                if case .entry(let entry) = line, entry.locale == nil, entry.key == key { return entry }
            }
            return nil
        }

        /// A boolean key: true only for `true` (the spec's spelling).
        public func flag(_ key: String) -> Bool {
            value(key)?.trimmingSpaces == "true"
        }

        /// Sets `key` (unlocalised) to an already escaped value: the last existing entry is
        /// replaced in place and any earlier ones removed; otherwise it is appended after the
        /// last entry.
        public mutating func set(_ key: String, rawValue: String) {
            let indices = lines.indices.filter { if case .entry(let entry) = lines[$0] { return entry.key == key && entry.locale == nil } else { return false } }
            if let last = indices.last {
                lines[last] = .entry(Entry(key: key, rawValue: rawValue))
                for index in indices.dropLast().reversed() { lines.remove(at: index) }
            } else {
                append(Entry(key: key, rawValue: rawValue))
            }
        }

        /// Appends an entry after the last entry (before trailing comments and blank lines).
        public mutating func append(_ entry: Entry) {
            let position = (lines.lastIndex { if case .entry = $0 { return true } else { return false } }).map { $0 + 1 } ?? 0
            lines.insert(.entry(entry), at: position)
        }

        /// Removes every entry whose key satisfies `predicate`.
        public mutating func removeEntries(where predicate: (Entry) -> Bool) {
            lines.removeAll { if case .entry(let entry) = $0 { return predicate(entry) } else { return false } }
        }
    }

    /// Comments and blank lines before the first group.
    public var preamble: [String]
    public var groups: [Group]

    public init(preamble: [String] = [], groups: [Group] = []) {
        self.preamble = preamble
        self.groups = groups
    }

    public static let mainGroup = "Desktop Entry"
    public static let actionGroupPrefix = "Desktop Action "

    /// The group called `name`.
    public func group(_ name: String) -> Group? {
        groups.first { $0.name == name }
    }

    /// `[Desktop Entry]`.
    public var main: Group? { group(Self.mainGroup) }

    /// Changes the group called `name` in place; false when there is none.
    @discardableResult
    public mutating func modifyGroup(_ name: String, _ body: (inout Group) -> Void) -> Bool {
        guard let index = groups.firstIndex(where: { $0.name == name }) else { return false }
        body(&groups[index])
        return true
    }

    /// The file's text: every line as read (or as set), each ending in a newline.
    public var text: String {
        var lines = preamble
        for group in groups {
            lines.append("[\(group.name)]")
            for line in group.lines {
                switch line {
                case .entry(let entry): lines.append(entry.line)
                case .comment(let text): lines.append(text)
                }
            }
        }
        return lines.map { $0 + "\n" }.joined()
    }
}

extension String {
    var trimmingSpaces: Substring {
        var slice = self[...]
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return slice
    }
}
