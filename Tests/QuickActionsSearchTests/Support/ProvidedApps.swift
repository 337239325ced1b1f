import Foundation
import QuickActionsTestSupport

/// A real quickactionsd with its item providers on (issue 33) and its search bridges, on a
/// private bus and a private desktop: an editor whose desktop action is "New Window" and whose
/// recent document is notes.txt (in recently-used.xbel, written by GLib after the broker
/// started), and a launcher app that has only its desktop actions.
struct ProvidedApps {
    static let editor = "org.example.Editor"
    /// Only desktop actions: its Exec is not the recorder, so no bookmark is its.
    static let actionsOnly = "org.example.Actions"

    let world: DesktopWorld
    let broker: SearchBroker
    let notes: URL

    init(arguments: [String] = []) async throws {
        world = try DesktopWorld(prefix: "qa-search-provided")
        do {
            try world.entry("\(Self.editor).desktop", world.editor())
            try world.entry("\(Self.actionsOnly).desktop", """
                [Desktop Entry]
                Type=Application
                Name=Actions Only
                Exec=/bin/true
                Actions=settings;

                [Desktop Action settings]
                Name=Settings
                Exec=/bin/true --settings

                """)
            notes = try world.document("notes.txt")
            broker = try await SearchBroker(examples: [], arguments: arguments, environment: world.environment())
        } catch {
            world.remove()
            throw error
        }
        do {
            try await world.recentlyUsed([notes], by: world.recorder.path, name: "Recorder", into: broker.harness.bus.dataHome)
        } catch {
            stop()
            throw error
        }
    }

    func stop() {
        broker.stop()
        world.remove()
    }

    /// Waits until the editor lists its action and its document.
    func waitForItems() async throws {
        let ready = try await broker.waitFor {
            let titles = try await broker.items(Self.editor).map(\.title)
            return titles.contains("New Window") && titles.contains("notes.txt")
        }
        guard ready else {
            throw TestSupportError("the editor's items: \(try await broker.items(Self.editor)); log: \(broker.harness.log)")
        }
    }

    /// The result id ("<app>/<item>") of the editor's item titled `title`.
    func resultID(_ title: String) async throws -> String {
        guard let item = try await broker.items(Self.editor).first(where: { $0.title == title }) else {
            throw TestSupportError("no editor item titled \(title)")
        }
        return "\(Self.editor)/\(item.id)"
    }
}
