import Foundation

/// A Markdown document whose fenced code blocks are steps a test replays.
///
/// Every fenced block must follow an HTML comment that says what it is:
///
/// - `<!-- guide: scenario NAME -->` (on its own) starts a scenario: a fresh
///   empty folder beside a `QuickActions` checkout, and a private bus.
/// - `<!-- guide: file PATH -->`: the block is the content of PATH, relative
///   to the current folder.
/// - `<!-- guide: run -->`: shell commands, run with `sh -e` in the current
///   folder; a `cd` in them changes the current folder for the next steps.
/// - `<!-- guide: broker -->`: one command that starts the broker; it runs in
///   the background until the scenario ends (or the next broker step).
/// - `<!-- guide: console -->` or `<!-- guide: console fails -->`: lines
///   starting with `$ ` are commands (a trailing `\` continues one); the lines
///   after each are its expected output (stdout, then stderr). With `fails`,
///   each command must exit non-zero, else zero.
/// - `<!-- guide: broker-log -->`: lines the broker's log must hold by now,
///   in this order, among others (`…` as in ``OutputPattern``).
///
/// A block without such a comment is an error, so nothing in the guide goes
/// untested.
struct GuideDocument {
    /// One replayable step, with the line of its block for messages.
    enum Step: Equatable {
        case file(path: String, content: String)
        case run(script: String)
        case broker(command: String)
        case console(commands: [ConsoleCommand], fails: Bool)
        case brokerLog(lines: [String])
    }

    struct LocatedStep: Equatable {
        var step: Step
        var line: Int
    }

    struct Scenario: Equatable {
        var name: String
        var steps: [LocatedStep]
    }

    struct ConsoleCommand: Equatable {
        var command: String
        var expectedOutput: [String]
    }

    struct ParseError: Error, CustomStringConvertible {
        var line: Int
        var reason: String
        var description: String { "line \(line): \(reason)" }
    }

    var scenarios: [Scenario]

    init(markdown: String) throws {
        let lines = markdown.components(separatedBy: "\n")
        var scenarios: [Scenario] = []
        var marker: (words: [String], line: Int)?
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let words = Self.markerWords(trimmed) {
                if words.first == "scenario" {
                    guard words.count == 2 else {
                        throw ParseError(line: index + 1, reason: "a scenario marker needs one name: \(trimmed)")
                    }
                    scenarios.append(Scenario(name: words[1], steps: []))
                } else {
                    marker = (words, index + 1)
                }
                index += 1
                continue
            }
            guard trimmed.hasPrefix("```") else {
                if !trimmed.isEmpty { marker = nil }
                index += 1
                continue
            }
            let fence = String(trimmed.prefix { $0 == "`" })
            let start = index + 1
            var body: [String] = []
            index += 1
            while index < lines.count, !lines[index].trimmingCharacters(in: .whitespaces).hasPrefix(fence) {
                body.append(lines[index])
                index += 1
            }
            guard index < lines.count else { throw ParseError(line: start, reason: "the code block is never closed") }
            index += 1
            guard let (words, markerLine) = marker else {
                throw ParseError(line: start, reason: "the code block has no <!-- guide: … --> comment right before it")
            }
            marker = nil
            guard !scenarios.isEmpty else {
                throw ParseError(line: start, reason: "the code block comes before any <!-- guide: scenario NAME -->")
            }
            let step = try Self.step(words, body: body, line: markerLine)
            scenarios[scenarios.count - 1].steps.append(LocatedStep(step: step, line: start))
        }
        self.scenarios = scenarios
    }

    /// The words of `<!-- guide: … -->`, or nil for any other line.
    private static func markerWords(_ line: String) -> [String]? {
        guard line.hasPrefix("<!-- guide:"), line.hasSuffix("-->") else { return nil }
        let inner = line.dropFirst("<!-- guide:".count).dropLast("-->".count)
        return inner.split(separator: " ").map(String.init)
    }

    private static func step(_ words: [String], body: [String], line: Int) throws -> Step {
        let text = body.joined(separator: "\n")
        switch words.first {
        case "file":
            guard words.count == 2 else { throw ParseError(line: line, reason: "file needs one path") }
            return .file(path: words[1], content: text + "\n")
        case "run":
            return .run(script: text)
        case "broker":
            let command = joinContinuations(body).filter { !$0.isEmpty }
            guard command.count == 1 else { throw ParseError(line: line, reason: "a broker block holds one command") }
            return .broker(command: command[0])
        case "console":
            let fails = words.dropFirst().contains("fails")
            return .console(commands: try consoleCommands(body, line: line), fails: fails)
        case "broker-log":
            return .brokerLog(lines: body.filter { !$0.isEmpty })
        default:
            throw ParseError(line: line, reason: "unknown guide marker \"\(words.joined(separator: " "))\"")
        }
    }

    /// Lines with their `\` continuations joined.
    private static func joinContinuations(_ lines: [String]) -> [String] {
        var result: [String] = []
        var pending: String?
        for line in lines {
            if let start = pending {
                pending = nil
                let joined = start + " " + line.trimmingCharacters(in: .whitespaces)
                if joined.hasSuffix("\\") { pending = String(joined.dropLast()).trimmingCharacters(in: .whitespaces) }
                else { result.append(joined) }
            } else if line.hasSuffix("\\") {
                pending = String(line.dropLast()).trimmingCharacters(in: .whitespaces)
            } else {
                result.append(line)
            }
        }
        if let pending { result.append(pending) }
        return result
    }

    private static func consoleCommands(_ body: [String], line: Int) throws -> [ConsoleCommand] {
        var commands: [ConsoleCommand] = []
        var index = 0
        while index < body.count {
            let text = body[index]
            if text.hasPrefix("$ ") {
                var command = String(text.dropFirst(2))
                while command.hasSuffix("\\"), index + 1 < body.count {
                    index += 1
                    command = String(command.dropLast()).trimmingCharacters(in: .whitespaces) + " "
                        + body[index].trimmingCharacters(in: .whitespaces)
                }
                commands.append(ConsoleCommand(command: command, expectedOutput: []))
            } else if commands.isEmpty {
                throw ParseError(line: line, reason: "a console block must start with a \"$ \" command line")
            } else {
                commands[commands.count - 1].expectedOutput.append(text)
            }
            index += 1
        }
        return commands
    }
}
