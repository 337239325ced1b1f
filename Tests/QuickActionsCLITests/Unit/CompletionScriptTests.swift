import Foundation
import QuickActionsCLI
import QuickActionsTestSupport
import Testing

@Suite("Completion scripts")
struct CompletionScriptTests {
    func script(_ shell: String) async -> String {
        let recorder = RecordingConsole()
        let status = await QuickActionsCLI.run(["completion", shell], environment: [:], console: recorder.console)
        #expect(status == 0)
        return recorder.stdout
    }

    @Test("each script names every visible command and option", arguments: ["bash", "zsh", "fish"])
    func content(_ shell: String) async {
        let text = await script(shell)
        for spec in QuickActionsCLI.commandSpecs where !spec.isHidden {
            #expect(text.contains(spec.name), "\(shell) script lacks \(spec.name)")
            for option in spec.options {
                #expect(text.contains(option.long), "\(shell) script lacks --\(option.long)")
            }
        }
        #expect(text.contains("__complete apps"))
        #expect(text.contains("__complete items"), "items are completed by id")
        #expect(!text.contains("__complete)"), "the hidden command is not offered")
    }

    @Test("descriptions keep the text after \"e.g.\": an abbreviation does not end the sentence",
          arguments: ["zsh", "fish"])
    func abbreviations(_ shell: String) async {
        let text = await script(shell)
        #expect(text.contains("Titles in this locale, e.g. de_DE"), "\(shell): --locale's description is cut")
        #expect(text.contains("The picker to run, e.g. rofi -dmenu or fzf --height=10"), "\(shell): --picker's is cut")
        #expect(!text.contains("e.g'"), "\(shell): a description ends at \"e.g\"")
    }

    @Test("the scripts pass the syntax check of their shell (zsh and fish when installed)",
          arguments: [("bash", ["-n"]), ("zsh", ["-n"]), ("fish", ["--no-execute"])])
    func syntax(_ shell: String, _ flags: [String]) async throws {
        guard Command.exists(shell) else { return }
        let directory = try TemporaryDirectory.make(prefix: "qa-cli-completion")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("script")
        try await script(shell).write(to: file, atomically: true, encoding: .utf8)
        let result = try await Command.run(shell, flags + [file.path])
        #expect(result.status == 0, "\(result)")
    }
}
