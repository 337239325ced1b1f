import Foundation
import QuickActionsModel
import QuickActionsTestSupport
import Testing

/// Issue 7 item 4 with real clients: what busctl, gdbus and python3's dbus
/// module users see for bad input, and what only a raw wire client can
/// send (invalid UTF-8), which the bus itself stops.
@Suite(.serialized) struct BadClientTests {
    static let scripts = PackagePaths.root.appendingPathComponent("Tests/QuickActionsReliabilityTests/Scripts")

    /// One JSON line per case from a script: key → outcome.
    static func outcomes(_ result: CommandResult, key: String) -> [String: String] {
        var found: [String: String] = [:]
        for line in result.stdout.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String],
                  let name = object[key], let outcome = object["outcome"] else { continue }
            found[name] = outcome
        }
        return found
    }

    static func serves(_ harness: BrokerHarness) async throws -> Bool {
        try await BrokerClient(harness).applicationIDs() == ["org.example.fast1"]
    }

    /// libdbus refuses invalid UTF-8 when marshalling, and so do sd-bus and
    /// GDBus; a raw client can send it, and dbus-daemon then drops that
    /// client (it validates every message). A noncharacter (U+FFFE) is
    /// valid UTF-8: it reaches the broker and is named in the error.
    @Test func invalidUTF8NeverReachesTheBrokerAndAValidOddNameIsNamedInTheError() async throws {
        let harness = try await BrokerHarness(bundles: [Apps.fast("org.example.fast1")])
        defer { harness.stop() }
        let cases: [(hex: String, what: String, outcome: String)] = [
            (Data("org.example.fast1".utf8).map { String(format: "%02x", $0) }.joined(), "the real app id", "return"),
            ("fffe", "bytes that are never UTF-8", "disconnected"),
            ("c0af", "an overlong encoding of /", "disconnected"),
            ("eda080", "a UTF-16 surrogate (CESU-8)", "disconnected"),
            ("f4908080", "a code point above U+10FFFF", "disconnected"),
            ("616200", "an embedded NUL", "disconnected"),
            ("efbfbe", "the noncharacter U+FFFE",
             "error org.quickactions.Error.UnknownApplication: no application with id \"\u{FFFE}\""),
        ]
        let result = try await Command.run("/usr/bin/python3", [Self.scripts.appendingPathComponent("raw_strings.py").path]
                                           + cases.map(\.hex), environment: harness.bus.environment(), timeout: .seconds(60))
        #expect(result.status == 0, "\(result)")
        let outcomes = Self.outcomes(result, key: "bytes")
        for expected in cases {
            #expect(outcomes[expected.hex] == expected.outcome, "\(expected.what): \(result)")
        }
        #expect(try await Self.serves(harness), "the broker still serves")
        #expect(harness.process.isRunning)
    }

    /// What libdbus can express and our binding refuses to send: values
    /// nested past our binding's stricter per-message counting, and past
    /// the bus's limit of 64 containers.
    @Test func deepValuesFromPythonGetInvalidArgsOrAreStoppedByTheBus() async throws {
        let harness = try await BrokerHarness(bundles: [Apps.fast("org.example.fast1")])
        defer { harness.stop() }
        let limit = ItemLimits.maximumUserInfoDepth
        let cases: [(name: String, outcome: String)] = [
            ("arguments-depth:\(limit)", "return success=True message=fast fast -"),
            ("arguments-depth:\(limit + 1)", "error org.freedesktop.DBus.Error.InvalidArgs: \"arguments.deep"),
            ("arguments-depth:58", "error org.freedesktop.DBus.Error.InvalidArgs: \"arguments.deep"),
            ("locale-variants:62", "error org.freedesktop.DBus.Error.InvalidArgs: option \"locale\" must have type \"s\", got \"v\""),
            ("locale-variants:63", "disconnected: org.freedesktop.DBus.Error.Disconnected"),
        ]
        let result = try await Command.run("/usr/bin/python3", [Self.scripts.appendingPathComponent("bad_calls.py").path]
                                           + cases.map(\.name), environment: harness.bus.environment(), timeout: .seconds(60))
        #expect(result.status == 0, "\(result)")
        let outcomes = Self.outcomes(result, key: "case")
        for expected in cases {
            #expect(outcomes[expected.name]?.hasPrefix(expected.outcome) == true, "\(expected.name): \(result)")
        }
        #expect(outcomes["arguments-depth:\(limit + 1)"]?.contains("nested deeper than \(limit) levels") == true, "\(outcomes)")
        #expect(try await Self.serves(harness))
    }

    struct ClientCase: Sendable, CustomStringConvertible {
        var tool: String
        var arguments: [String]
        var error: String
        var mentions: String
        /// The longest the error line may be: a value at fault is quoted by a bounded prefix.
        var longest = 4096
        var description: String { "\(tool) \(arguments.joined(separator: " ").prefix(120))" }
    }

    static let clientCases: [ClientCase] = [
        ClientCase(tool: "busctl", arguments: ["call", "org.quickactions.Broker1", "/org/quickactions/Broker1",
                                               "org.quickactions.Broker1", "GetItems", "s", "org.example.fast1"],
                   error: "sa{sv}", mentions: "\"s\""),
        ClientCase(tool: "busctl", arguments: ["call", "org.quickactions.Broker1", "/org/quickactions/Broker1",
                                               "org.quickactions.Broker1", "Perform", "ssa{sv}", "org.example.fast1",
                                               "fast", "1", "timeout-ms", "s", "soon"],
                   error: "timeout-ms", mentions: "\"u\""),
        ClientCase(tool: "busctl", arguments: ["call", "org.quickactions.Broker1", "/org/quickactions/Broker1",
                                               "org.quickactions.Broker1", "Perform", "ssa{sv}",
                                               String(repeating: "x", count: 100_000), "fast", "0"],
                   error: "no application with id",
                   mentions: "\"\(String(repeating: "x", count: 64))…\" (100000 bytes)", longest: 200),
        ClientCase(tool: "gdbus", arguments: ["call", "--dest", "org.quickactions.Broker1", "--object-path",
                                              "/org/quickactions/Broker1", "--method", "org.quickactions.Broker1.Perform",
                                              "org.example.fast1", "", "{}"],
                   error: "UnknownItem", mentions: "type \"\""),
        ClientCase(tool: "gdbus", arguments: ["call", "--dest", "org.quickactions.Broker1", "--object-path",
                                              "/org/quickactions/Broker1", "--method", "org.quickactions.Broker1.GetAllItems",
                                              "{'limit': <int32 2>}"],
                   error: "InvalidArgs", mentions: "limit"),
        ClientCase(tool: "gdbus", arguments: ["call", "--dest", "org.quickactions.Broker1", "--object-path",
                                              "/org/quickactions/Broker1", "--method", "org.quickactions.Broker1.Perform",
                                              "org.example.fast1", "fast", "{'arguments': <{'at': <objectpath '/x'>}>}"],
                   error: "InvalidArgs", mentions: "arguments.at"),
    ]

    @Test(arguments: clientCases)
    func realClientsSeeANamedError(_ bad: ClientCase) async throws {
        let harness = try await BrokerHarness(bundles: [Apps.fast("org.example.fast1")])
        defer { harness.stop() }
        let arguments = bad.tool == "busctl"
            ? ["--address=\(harness.bus.address)"] + bad.arguments
            : [bad.arguments[0], "--address", harness.bus.address] + bad.arguments.dropFirst()
        let result = try await Command.run(bad.tool, arguments, timeout: .seconds(30))
        #expect(result.status != 0, "\(result)")
        #expect(result.stderr.contains(bad.error), "\(result)")
        #expect(result.stderr.contains(bad.mentions), "\(result)")
        #expect(result.stderr.utf8.count <= bad.longest, "\(result.stderr.utf8.count) bytes: \(result.stderr.prefix(500))")
        #expect(try await Self.serves(harness))
    }
}
