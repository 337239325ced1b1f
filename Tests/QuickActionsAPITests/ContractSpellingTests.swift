import Foundation
import QuickActionsTestSupport
import Testing

/// The contract's names are spelled once, in Sources/QuickActionsAPI: no other source file in
/// Sources/ writes one as a string literal, and QuickActionsAPI names everything dbus/*.xml
/// declares. A renamed member is then a compile error everywhere, never a silent mismatch.
///
/// What counts as a contract name: every string constant QuickActionsAPI declares
/// (`static let name = "…"` or `static let name: MemberName = "…"`), except those of other
/// owners' interfaces it declares for convenience (``ContractSource/foreign``). A name with a dot,
/// a slash or an underscore (bus, interface, path, error and environment names) is refused
/// anywhere inside a literal, multi-line ones included; a plain word (a member, property, key or
/// value: "Perform", "item-id", "type") is refused where it is a whole single-line literal. Not
/// scanned: comments (doc comments say the names in prose) and the words inside multi-line
/// literals (help texts and embedded scripts; a dotted name there is still refused).
@Suite struct ContractSpellingTests {
    /// Literals that equal a contract word but mean something else, per file: each says why.
    /// Kept exact: an entry that no longer matches anything fails the test, so the list stays
    /// as short as the code needs.
    static let exceptions: [String: (literals: Set<String>, why: String)] = [
        "Sources/QuickActionsCLI/Commands/CommonOptions.swift": (
            ["locale", "limit", "activation-token"], "the CLI's own flags (--locale, --limit, --activation-token)"),
        "Sources/QuickActionsCLI/Commands/InvokeCommand.swift": (["id"], "the CLI's own flag --id"),
        "Sources/QuickActionsCLI/Output/JSONOutput.swift": (
            ["id", "icon", "type"], "keys of the CLI's --json output (README), the CLI's format"),
        "Sources/QuickActionsCLI/Commands/StatusCommand.swift": (["id"], "a key of `status --json`"),
        "Sources/QuickActionsCLI/QuickActionsCLI.swift": (["message"], "the CLI's JSON error object"),
        "Sources/QuickActionsDesktopEntries/Bridge/EntryComposer.swift": (
            ["Version", "Name", "Icon"], "Desktop Entry Specification keys"),
        "Sources/QuickActionsSearch/GnomeShell/GnomeShellSearchProvider.swift": (
            ["id", "icon"], "GNOME Shell SearchProvider2 result-meta keys"),
        "Sources/QuickActionsSearch/Dock/DbusMenu.swift": (
            ["Version", "type"], "com.canonical.dbusmenu's property and member names"),
        "Sources/quickactions-bench/LaunchBenchmark.swift": (["launch"], "the name of the benchmark's work folder"),
        "Sources/QuickActionsModel/Icons/IconTable.swift": (["message"], "a symbol name in the icon table"),
        "Sources/QuickActionsDesktopEntries/Applications/ApplicationEntryReader.swift": (
            ["Name", "Icon"], "Desktop Entry Specification keys"),
        "Sources/QuickActionsDesktopEntries/Launching/ApplicationActivation.swift": (
            ["activation-token", "desktop-startup-id"],
            "org.freedesktop.Application's platform-data keys (Desktop Entry Specification)"),
        "Sources/QuickActionsProviders/MediaPlayers/MPRIS.swift": (["DesktopEntry"], "an MPRIS2 property"),
        "Sources/QuickActionsProviders/MediaPlayers/PlayerProperties.swift": (["DesktopEntry"], "an MPRIS2 property"),
        "Sources/QuickActionsProviders/RecentDocuments/BookmarkFile.swift": (
            ["title", "type"], "Desktop Bookmark (XBEL) element and attribute names"),
        "Sources/QuickActionsProviders/Settings/ProviderSettings.swift": (
            ["Providers", "limit"], "quickactionsd.conf's own group and key (quickactionsd(1))"),
        "Sources/QuickActionsModel/Limits/ItemLimits.swift": (
            ["user-info"], "the field's name in limit errors; the model core knows no bus and cannot import the API"),
    ]

    /// Whole files that spell the contract by design.
    static let exemptFiles: [String: String] = [
        "Sources/qa-bench-floor/floor.c": "the benchmark's floor: a Perform responder on plain libdbus in C",
        "Sources/qa-bench-relay/relay.c": "the benchmark's relay floor, plain libdbus in C like the floor",
    ]

    @Test func noSourceOutsideQuickActionsAPISpellsAContractName() throws {
        let names = try ContractSource.names()
        let dotted = names.filter(ContractSource.isDotted)
        let words = names.subtracting(dotted)
        var found: [String] = []
        var excused: [String: Set<String>] = [:]
        for file in try ContractSource.sourceFiles() where Self.exemptFiles[file] == nil {
            let text = try String(contentsOf: PackagePaths.root.appendingPathComponent(file), encoding: .utf8)
            for literal in LiteralScanner.literals(in: text) {
                for name in dotted where literal.text.contains(name) {
                    found.append("\(file):\(literal.line): \(name.debugDescription) in \(literal.text.prefix(80).debugDescription)")
                }
                guard !literal.multiline, !literal.isArgumentName, words.contains(literal.text) else { continue }
                if Self.exceptions[file]?.literals.contains(literal.text) == true {
                    excused[file, default: []].insert(literal.text)
                } else {
                    found.append("\(file):\(literal.line): \(literal.text.debugDescription)")
                }
            }
        }
        let report = found.joined(separator: "\n")
        #expect(found.isEmpty, "contract names spelled outside Sources/QuickActionsAPI (use its constants):\n\(report)")
        for (file, entry) in Self.exceptions {
            let stale = entry.literals.subtracting(excused[file] ?? [])
            #expect(stale.isEmpty, "exceptions for \(file) no longer needed: \(stale.sorted())")
        }
    }

    /// The scanner itself: what it finds and what it leaves alone.
    @Test func theScannerFindsLiteralsAndSkipsCommentsAndArgumentNames() {
        let source = #"""
            // "Perform" in a comment
            let a = "Perform" /* "GetItems" */
            let b = Argument("type", .string); let c = TypedArgument("type", String.self)
            let d = "x \(f("Reload")) y"
            let e = """
                "ItemsChanged" at org.quickactions.Broker1
                """
            let g = "escaped \" quote"
            """#
        let literals = LiteralScanner.literals(in: source)
        #expect(literals.map(\.text) == [
            "Perform", "type", "type", "x \u{1} y", "Reload", "\"ItemsChanged\" at org.quickactions.Broker1", "escaped \\\" quote",
        ])
        #expect(literals.map(\.isArgumentName) == [false, true, true, false, false, false, false])
        #expect(literals.map(\.multiline) == [false, false, false, false, false, true, false])
        #expect(literals.map(\.line) == [2, 3, 3, 4, 4, 5, 8])
    }

    /// QuickActionsAPI names every interface, member, property, error and object path of dbus/*.xml.
    @Test func quickActionsAPINamesEverythingTheXMLDeclares() throws {
        let names = try ContractSource.names()
        let folder = PackagePaths.root.appendingPathComponent("dbus")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix("org.quickactions.") && $0.hasSuffix(".xml") }
        #expect(files.count == 3, "\(files)")
        let declared = try Regex(#"<(?:interface|method|signal|property|node) name="([^"]+)""#)
        let errors = try Regex(#"org\.quickactions\.Error\.[A-Za-z]+"#)
        var missing: [String] = []
        for file in files.sorted() {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let found = text.matches(of: declared).compactMap { $0.output[1].substring.map(String.init) }
                + text.matches(of: errors).map { String($0.output[0].substring ?? "") }
            missing += found.filter { !names.contains($0) }.map { "\(file): \($0)" }
        }
        #expect(missing.isEmpty, "declared in dbus/ but not in QuickActionsAPI: \(missing)")
    }
}

/// Where the contract's names come from, and which files are checked.
enum ContractSource {
    /// Names QuickActionsAPI declares that belong to other owners' interfaces (the bus's and
    /// freedesktop's), which the DBus module and the bridges spell as their specifications do.
    static let foreign: Set<String> = ["GetManagedObjects", "GetAll"]
    /// QuickActionsAPI files that hold only other owners' names.
    static let foreignFiles: Set<String> = ["DesktopNotifications.swift"]

    static func names() throws -> Set<String> {
        let folder = PackagePaths.root.appendingPathComponent("Sources/QuickActionsAPI")
        let declaration = try Regex(#"static let \w+(?:: \w+)? = "([^"\\]+)""#)
        var names: Set<String> = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path)
        where file.hasSuffix(".swift") && !foreignFiles.contains(file) {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: declaration) {
                guard let name = match.output[1].substring.map(String.init) else { continue }
                if name.hasPrefix("org.freedesktop.") || foreign.contains(name) { continue }
                names.insert(name)
            }
        }
        // A broken pattern would find nothing and pass every scan.
        for expected in ["org.quickactions.Broker1", "Perform", "item-id", "user-info", "QUICKACTIONS_HOST_APP_ID"] {
            guard names.contains(expected) else {
                throw ScanError("QuickActionsAPI's names lack \(expected.debugDescription): \(names.sorted())")
            }
        }
        return names
    }

    static func isDotted(_ name: String) -> Bool {
        name.contains(".") || name.contains("/") || name.contains("_")
    }

    /// Swift and C sources under Sources/, outside QuickActionsAPI, relative to the package root.
    static func sourceFiles() throws -> [String] {
        let root = PackagePaths.root.appendingPathComponent("Sources")
        guard let walker = FileManager.default.enumerator(atPath: root.path) else {
            throw ScanError("cannot list \(root.path)")
        }
        var files: [String] = []
        while let path = walker.nextObject() as? String {
            guard path.hasSuffix(".swift") || path.hasSuffix(".c") || path.hasSuffix(".h") else { continue }
            if path.hasPrefix("QuickActionsAPI/") { continue }
            files.append("Sources/" + path)
        }
        guard files.count > 100 else { throw ScanError("only \(files.count) source files under \(root.path)") }
        return files.sorted()
    }
}

struct ScanError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The string literals of a Swift or C source, comments skipped. An interpolation's own
/// literals are literals too; in the enclosing one it stands as U+0001.
enum LiteralScanner {
    struct Literal: Equatable {
        var text: String
        /// The line it starts on, from 1.
        var line: Int
        var multiline: Bool
        /// The name of an `Argument(…)` or `TypedArgument(…)`: an introspection argument name.
        var isArgumentName: Bool
    }

    static func literals(in source: String) -> [Literal] {
        let characters = Array(source.unicodeScalars)
        var literals: [Literal] = []
        var index = 0
        var line = 1
        scanCode(characters, &index, &line, &literals, untilParenthesis: false)
        return literals
    }

    private static func starts(_ characters: [Unicode.Scalar], _ index: Int, with text: String) -> Bool {
        var offset = index
        for scalar in text.unicodeScalars {
            guard offset < characters.count, characters[offset] == scalar else { return false }
            offset += 1
        }
        return true
    }

    /// Code until the end, or until the `)` closing an interpolation.
    private static func scanCode(
        _ characters: [Unicode.Scalar], _ index: inout Int, _ line: inout Int, _ literals: inout [Literal],
        untilParenthesis: Bool
    ) {
        var depth = 0
        while index < characters.count {
            let character = characters[index]
            if character == "\n" { line += 1 }
            if starts(characters, index, with: "//") {
                while index < characters.count, characters[index] != "\n" { index += 1 }
                continue
            }
            if starts(characters, index, with: "/*") {
                index += 2
                while index < characters.count, !starts(characters, index, with: "*/") {
                    if characters[index] == "\n" { line += 1 }
                    index += 1
                }
                index += 2
                continue
            }
            if character == "\"" {
                let before = String(String.UnicodeScalarView(characters[max(0, index - 16)..<index]))
                let isArgument = before.hasSuffix("Argument(")
                scanLiteral(characters, &index, &line, &literals, isArgumentName: isArgument)
                continue
            }
            if untilParenthesis {
                if character == "(" { depth += 1 }
                if character == ")" {
                    if depth == 0 { index += 1; return }
                    depth -= 1
                }
            }
            index += 1
        }
    }

    /// A literal starting at `index` (its opening quote); leaves `index` after its closing quote.
    private static func scanLiteral(
        _ characters: [Unicode.Scalar], _ index: inout Int, _ line: inout Int, _ literals: inout [Literal],
        isArgumentName: Bool
    ) {
        let multiline = starts(characters, index, with: "\"\"\"")
        let startLine = line
        index += multiline ? 3 : 1
        if multiline, index < characters.count, characters[index] == "\n" {
            // The text starts on the next line; a multi-line literal's indentation is kept (as written).
            line += 1
            index += 1
        }
        var text = String.UnicodeScalarView()
        var nested: [Literal] = []
        while index < characters.count {
            let character = characters[index]
            if multiline ? starts(characters, index, with: "\"\"\"") : character == "\"" {
                index += multiline ? 3 : 1
                break
            }
            if !multiline, character == "\n" { break }
            if character == "\\", index + 1 < characters.count {
                if characters[index + 1] == "(" {
                    index += 2
                    scanCode(characters, &index, &line, &nested, untilParenthesis: true)
                    text.append("\u{1}")
                    continue
                }
                text.append(character)
                text.append(characters[index + 1])
                index += 2
                continue
            }
            if character == "\n" { line += 1 }
            text.append(character)
            index += 1
        }
        var body = String(text)
        if multiline {
            // Drop the closing delimiter's indentation line.
            while body.last == " " { body.removeLast() }
            if body.last == "\n" { body.removeLast() }
            body = body.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.drop { $0 == " " } }.joined(separator: "\n")
        }
        literals.append(Literal(text: body, line: startLine, multiline: multiline, isArgumentName: isArgumentName))
        literals += nested
    }
}
