/// Rows of text in aligned columns, fitted to a width: the flexible columns
/// (titles, subtitles) give up space first, then the others; cut cells end
/// in "…". Section headings (an app's name) sit between rows.
public struct Table: Sendable {
    public struct Column: Sendable {
        public let header: String
        /// Whether this column shrinks before the fixed ones.
        public let flexible: Bool
        /// Whether this column's cells are never cut: ids a user copies must stay exactly as
        /// the API gives them, even when the row then overflows the width.
        public let keepsWhole: Bool
        /// When rows do not fit even with the flexible columns cut short, columns with a drop
        /// rank are left out, the highest rank first, before any fixed column is cut: a column
        /// left out reads better than one cut to a letter.
        public let dropRank: Int?
        /// Optional styling of the column's cells (applied after padding is worked out).
        public let style: (@Sendable (Style, String) -> String)?

        public init(
            _ header: String, flexible: Bool = false, keepsWhole: Bool = false, dropRank: Int? = nil,
            style: (@Sendable (Style, String) -> String)? = nil
        ) {
            self.header = header
            self.flexible = flexible
            self.keepsWhole = keepsWhole
            self.dropRank = dropRank
            self.style = style
        }
    }

    public enum Row: Sendable, Equatable {
        case cells([String])
        case heading(String)
    }

    public var columns: [Column]
    public var rows: [Row] = []
    /// Spaces before every cell row (rows under headings are indented).
    public var indent: Int = 0
    public var showsHeader: Bool = true
    /// Spaces between columns.
    public let gap = 2

    public init(columns: [Column], indent: Int = 0, showsHeader: Bool = true) {
        self.columns = columns
        self.indent = indent
        self.showsHeader = showsHeader
    }

    public mutating func add(_ cells: [String]) {
        rows.append(.cells(cells.map(DisplayWidth.sanitize)))
    }

    public mutating func addHeading(_ text: String) {
        rows.append(.heading(DisplayWidth.sanitize(text)))
    }

    /// The widths each column gets within `width` columns (nil: no limit), nil for a column
    /// left out. An empty trailing column keeps its header's width.
    public func columnWidths(fitting width: Int?) -> [Int?] {
        var natural = columns.map { showsHeader ? DisplayWidth.of($0.header) : 0 }
        for case .cells(let cells) in rows {
            for (index, cell) in cells.enumerated() where index < natural.count {
                natural[index] = max(natural[index], DisplayWidth.of(cell))
            }
        }
        guard let width else { return natural }
        var shown = Array(columns.indices)
        var droppable = columns.indices.filter { columns[$0].dropRank != nil }
            .sorted { (columns[$0].dropRank ?? 0) > (columns[$1].dropRank ?? 0) }
        while true {
            var widths = natural
            let available = width - indent - gap * max(0, shown.count - 1)
            var overflow = shown.reduce(0) { $0 + widths[$1] } - available
            // Shrink the widest flexible column, one column at a time, down to 8; then leave
            // out a droppable column and start again; then shrink the widest of any column,
            // down to 1; never one that keeps its cells whole.
            shrink(&widths, among: shown, overflow: &overflow, floor: 8) { columns[$0].flexible }
            if overflow > 0, !droppable.isEmpty {
                let dropped = droppable.removeFirst()
                shown.removeAll { $0 == dropped }
                continue
            }
            shrink(&widths, among: shown, overflow: &overflow, floor: 1) { _ in true }
            return columns.indices.map { shown.contains($0) ? widths[$0] : nil }
        }
    }

    private func shrink(
        _ widths: inout [Int], among shown: [Int], overflow: inout Int, floor: Int, _ eligible: (Int) -> Bool
    ) {
        while overflow > 0 {
            let candidates = shown.filter { !columns[$0].keepsWhole && eligible($0) && widths[$0] > floor }
            guard let widest = candidates.max(by: { widths[$0] < widths[$1] }) else { return }
            widths[widest] -= 1
            overflow -= 1
        }
    }

    /// The table's lines, fitted to `width` columns (nil: no limit).
    public func render(width: Int?, style: Style) -> [String] {
        let widths = columnWidths(fitting: width)
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        func line(_ cells: [String], header: Bool) -> String {
            var parts: [String] = []
            let lastShown = widths.lastIndex { $0 != nil }
            for (index, column) in columns.enumerated() {
                guard let columnWidth = widths[index] else { continue }
                let cell = index < cells.count ? cells[index] : ""
                let cut = DisplayWidth.truncate(cell, to: columnWidth)
                let isLast = index == lastShown
                let padding = isLast ? "" : String(repeating: " ", count: max(0, columnWidth - DisplayWidth.of(cut)))
                let styled = header ? style.bold(cut) : (column.style?(style, cut) ?? cut)
                parts.append(styled + padding)
            }
            var text = pad + parts.joined(separator: String(repeating: " ", count: gap))
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
        if showsHeader {
            lines.append(line(columns.map(\.header), header: true))
        }
        for row in rows {
            switch row {
            case .cells(let cells):
                lines.append(line(cells, header: false))
            case .heading(let text):
                let cut = width.map { DisplayWidth.truncate(text, to: $0) } ?? text
                lines.append(style.bold(cut))
            }
        }
        return lines
    }
}
