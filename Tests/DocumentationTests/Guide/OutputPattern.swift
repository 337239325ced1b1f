/// The output a guide shows for a command, matched against what it printed.
///
/// Lines are compared without trailing white space, and without blank lines
/// at either end. In an expected line, `…` stands for any text on that line
/// (a path that differs per machine); a line that is `…` alone stands for
/// any number of lines.
struct OutputPattern {
    let lines: [String]

    init(_ lines: [String]) {
        self.lines = Self.normalised(lines)
    }

    func matches(_ output: String) -> Bool {
        let actual = Self.normalised(output.components(separatedBy: "\n"))
        return Self.match(lines[...], actual[...])
    }

    private static func normalised(_ lines: [String]) -> [String] {
        var result = lines.map { line in
            var text = Substring(line)
            while let last = text.last, last.isWhitespace { text = text.dropLast() }
            return String(text)
        }
        while result.first?.isEmpty == true { result.removeFirst() }
        while result.last?.isEmpty == true { result.removeLast() }
        return result
    }

    private static func match(_ expected: ArraySlice<String>, _ actual: ArraySlice<String>) -> Bool {
        guard let first = expected.first else { return actual.isEmpty }
        if first == "…" {
            var rest = actual
            while true {
                if match(expected.dropFirst(), rest) { return true }
                guard !rest.isEmpty else { return false }
                rest = rest.dropFirst()
            }
        }
        guard let line = actual.first, lineMatches(first, line) else { return false }
        return match(expected.dropFirst(), actual.dropFirst())
    }

    /// Whether `line` matches `pattern`, where each `…` stands for any text.
    static func lineMatches(_ pattern: String, _ line: String) -> Bool {
        let parts = pattern.components(separatedBy: "…")
        guard parts.count > 1 else { return pattern == line }
        guard let head = parts.first, let tail = parts.last, line.hasPrefix(head) else { return false }
        var rest = line.dropFirst(head.count)
        for part in parts.dropFirst().dropLast() {
            guard let range = rest.range(of: part) else { return false }
            rest = rest[range.upperBound...]
        }
        return rest.hasSuffix(tail)
    }

    /// Whether every line of `expected` matches a line of `output`, in order,
    /// with any other lines around and between them.
    static func containsInOrder(_ expected: [String], in output: String) -> Bool {
        var remaining = expected[...]
        for line in output.components(separatedBy: "\n") {
            guard let next = remaining.first else { break }
            if lineMatches(next, line) { remaining = remaining.dropFirst() }
        }
        return remaining.isEmpty
    }
}
