/// Rows of text in aligned columns, fitted to a width: the flexible columns
/// (titles, subtitles) give up space first, then the others; cut cells end
/// in "…". Section headings (an app's name) sit between rows.
public struct Table: Sendable {
    public struct Column: Sendable {
        public let header: String
        /// Whether this column shrinks before the fixed ones.
        public let flexible: Bool
        /// Optional styling of the column's cells (applied after padding is worked out).
        public let style: (@Sendable (Style, String) -> String)?

        public init(_ header: String, flexible: Bool = false, style: (@Sendable (Style, String) -> String)? = nil) {
            self.header = header
            self.flexible = flexible
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

    /// The widths each column gets within `width` columns (nil: no limit).
    /// An empty trailing column keeps its header's width.
    public func columnWidths(fitting width: Int?) -> [Int] {
        var widths = columns.map { showsHeader ? DisplayWidth.of($0.header) : 0 }
        for case .cells(let cells) in rows {
            for (index, cell) in cells.enumerated() where index < widths.count {
                widths[index] = max(widths[index], DisplayWidth.of(cell))
            }
        }
        guard let width else { return widths }
        let available = width - indent - gap * max(0, columns.count - 1)
        var overflow = widths.reduce(0, +) - available
        // Shrink the widest flexible column, one column at a time, down to 8;
        // then the widest of any column, down to 1.
        for (floor, onlyFlexible) in [(8, true), (1, false)] {
            while overflow > 0 {
                let candidates = widths.indices.filter {
                    (!onlyFlexible || columns[$0].flexible) && widths[$0] > floor
                }
                guard let widest = candidates.max(by: { widths[$0] < widths[$1] }) else { break }
                widths[widest] -= 1
                overflow -= 1
            }
        }
        return widths
    }

    /// The table's lines, fitted to `width` columns (nil: no limit).
    public func render(width: Int?, style: Style) -> [String] {
        let widths = columnWidths(fitting: width)
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        func line(_ cells: [String], header: Bool) -> String {
            var parts: [String] = []
            for (index, column) in columns.enumerated() {
                let cell = index < cells.count ? cells[index] : ""
                let cut = DisplayWidth.truncate(cell, to: widths[index])
                let isLast = index == columns.count - 1
                let padding = isLast ? "" : String(repeating: " ", count: max(0, widths[index] - DisplayWidth.of(cut)))
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
