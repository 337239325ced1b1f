import Foundation
import QuickActionsSearch
import QuickActionsTestSupport
import Testing

/// The files make install ships for the bridges (desktop/, dbus/): valid where a validator
/// exists, and naming exactly what the bridges serve.
@Suite struct ShippedFilesTests {
    static func text(_ path: String) throws -> String {
        try String(contentsOf: PackagePaths.root.appendingPathComponent(path), encoding: .utf8)
    }

    static func keys(_ text: String) -> [String: String] {
        Dictionary(text.split(separator: "\n").compactMap { line -> (String, String)? in
            guard !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { return nil }
            return (String(line[..<equals]), String(line[line.index(after: equals)...]))
        }, uniquingKeysWith: { first, _ in first })
    }

    @Test func gnomeShellsProviderFileNamesTheServedObjectAndAShownDesktopEntry() throws {
        let ini = try Self.text("desktop/org.quickactions.Search1.search-provider.ini")
        #expect(ini.contains("[Shell Search Provider]"))
        let keys = Self.keys(ini)
        #expect(keys["BusName"] == SearchNames.busName.rawValue)
        #expect(keys["ObjectPath"] == SearchNames.gnomeShellPath.rawValue)
        #expect(keys["Version"] == "2")
        #expect(keys["DesktopId"] == "org.quickactions.QuickActions.desktop")
        let entry = Self.keys(try Self.text("desktop/org.quickactions.QuickActions.desktop.in"))
        #expect(entry["NoDisplay"] == nil && entry["Hidden"] == nil && entry["Type"] == "Application", "GNOME shows it")
    }

    @Test func theActivationFileStartsTheBroker() throws {
        let service = Self.keys(try Self.text("dbus/org.quickactions.Search1.service.in"))
        let broker = Self.keys(try Self.text("dbus/org.quickactions.Broker1.service.in"))
        #expect(service["Name"] == SearchNames.busName.rawValue)
        #expect(service["Exec"] == broker["Exec"] && service["SystemdService"] == broker["SystemdService"])
    }

    @Test(.enabled(if: Command.exists("desktop-file-validate")), arguments: [
        "desktop/org.quickactions.QuickActions.desktop.in", "desktop/org.quickactions.Search1.krunner.desktop",
    ])
    func desktopFilesValidate(_ path: String) async throws {
        let folder = try TemporaryDirectory.make(prefix: "qa-desktop")
        defer { try? FileManager.default.removeItem(at: folder) }
        // As scripts/install.sh writes it: @bindir@ replaced, its comment about it dropped.
        let installed = try Self.text(path).split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !($0.hasPrefix("#") && $0.contains("@bindir@")) }
            .joined(separator: "\n").replacingOccurrences(of: "@bindir@", with: "/usr/bin")
        let name = URL(fileURLWithPath: path).lastPathComponent.replacingOccurrences(of: ".desktop.in", with: ".desktop")
            .replacingOccurrences(of: ".krunner.desktop", with: ".desktop")
        let file = folder.appendingPathComponent(name)
        try installed.write(to: file, atomically: true, encoding: .utf8)
        let result = try await Command.run("desktop-file-validate", [file.path])
        #expect(result.status == 0 && result.stdout.isEmpty, "\(result)")
    }
}
