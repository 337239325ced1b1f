import DBus
import Foundation
import QuickActionsAPI
import QuickActionsTestSupport
import Testing

/// Perform's reply `(b, a{sv})` as clients written by others read it, in both plugin host
/// modes: busctl (sd-bus), gdbus (GDBus) and python3's dbus. The broker writes the reply
/// straight into the message the first time a message comes, and copies an encoded one
/// from the second time on (PerformReply.swift); every client must read the same text
/// each time, "message" before "activation" as the `Value` encoding wrote them.
@Suite struct PerformReplyClientTests {
    static let modes = ["process", "in-process"]

    static func harness(_ mode: String) async throws -> BrokerHarness {
        try await BrokerHarness(bundles: [Fixtures.cApp], arguments: ["--plugin-host", mode])
    }

    static func busctl(_ harness: BrokerHarness, _ type: String) async throws -> String {
        let result = try await harness.call("Perform", "ssa{sv}", ["org.example.c", type, "0"])
        #expect(result.status == 0, "\(result)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func gdbus(_ harness: BrokerHarness, _ type: String) async throws -> String {
        let result = try await Command.run("gdbus", [
            "call", "--address", harness.bus.address, "--dest", BrokerAPI.busName.rawValue,
            "--object-path", BrokerAPI.rootPath.rawValue, "--method", "org.quickactions.Broker1.Perform",
            "org.example.c", type, "{}",
        ], timeout: .seconds(30))
        #expect(result.status == 0, "\(result)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Each reply's values with their dbus-python types and variant levels, in wire order.
    static let pythonScript = """
        import dbus, json, sys
        bus = dbus.bus.BusConnection(sys.argv[1])
        broker = dbus.Interface(bus.get_object('org.quickactions.Broker1', '/org/quickactions/Broker1'),
                                'org.quickactions.Broker1')
        for _ in range(int(sys.argv[3])):
            success, result = broker.Perform('org.example.c', sys.argv[2], dbus.Dictionary({}, signature='sv'))
            print(json.dumps([type(success).__name__, bool(success), result.signature,
                              [[str(k), type(v).__name__, v.variant_level, str(v)] for k, v in result.items()]]))
        """

    static func python(_ harness: BrokerHarness, _ type: String, times: Int) async throws -> [String] {
        let result = try await Command.run("/usr/bin/python3", ["-c", pythonScript, harness.bus.address, type, "\(times)"],
                                           timeout: .seconds(30))
        #expect(result.status == 0, "\(result)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test(arguments: modes)
    func everyClientReadsTheSameReplyEveryTime(mode: String) async throws {
        let harness = try await Self.harness(mode)
        let launched = try await Self.busctl(harness, "succeed")
        #expect(launched == #"{"type":"ba{sv}","data":[true,{"message":{"type":"s","data":"C performed succeed: Succeed"},"activation":{"type":"s","data":"launch"}}]}"#)
        // First, second and later times of the same message: encoded, encoded and kept, copied.
        for _ in 0..<3 {
            #expect(try await Self.busctl(harness, "succeed")
                    == #"{"type":"ba{sv}","data":[true,{"message":{"type":"s","data":"C performed succeed: Succeed"},"activation":{"type":"s","data":"resume"}}]}"#)
            #expect(try await Self.gdbus(harness, "succeed")
                    == "(true, {'message': <'C performed succeed: Succeed'>, 'activation': <'resume'>})")
            #expect(try await Self.busctl(harness, "fail")
                    == #"{"type":"ba{sv}","data":[false,{"message":{"type":"s","data":"C failed on purpose"},"activation":{"type":"s","data":"resume"}}]}"#)
        }
        let python = try await Self.python(harness, "succeed", times: 3)
        #expect(python.count == 3)
        for line in python {
            #expect(line == #"["Boolean", true, "sv", [["message", "String", 1, "C performed succeed: Succeed"], ["activation", "String", 1, "resume"]]]"#)
        }
    }
}
