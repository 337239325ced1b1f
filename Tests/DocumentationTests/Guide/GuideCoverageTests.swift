import Foundation
import QuickActionsTestSupport
import Testing

/// The guide names what a plugin author types: every `UserInfoValue` case
/// and every `ShortcutItem` field, read from the sources so a new one cannot
/// go undocumented.
struct GuideCoverageTests {
    static func source(_ path: String) throws -> String {
        try String(contentsOf: PackagePaths.root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The words after `prefix` on each line that starts (after spaces) with it.
    static func names(after prefix: String, in text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix(prefix) else { return nil }
            let name = String(trimmed.dropFirst(prefix.count).prefix { $0.isLetter || $0.isNumber })
            return name.isEmpty ? nil : name  // "case .string:" in a switch names no case
        }
    }

    @Test func theGuideNamesEveryUserInfoValueCase() throws {
        let cases = Self.names(after: "case ", in: try Self.source("Sources/QuickActionsModel/UserInfoValue.swift"))
        #expect(cases.count == 7, "\(cases)")
        let guide = try Self.source("docs/plugin-guide.md")
        for name in cases {
            #expect(guide.contains("`.\(name)("), "the guide does not name UserInfoValue.\(name)")
        }
    }

    @Test func theGuideNamesEveryShortcutItemField() throws {
        let fields = Self.names(after: "public var ", in: try Self.source("Sources/QuickActionsModel/ShortcutItem.swift"))
        #expect(fields.contains("id"), "\(fields)")
        let guide = try Self.source("docs/plugin-guide.md")
        for field in fields {
            #expect(guide.contains("`\(field)`"), "the guide does not name ShortcutItem.\(field)")
        }
    }
}
