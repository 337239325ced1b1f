import DBus
import Foundation
import QuickActionsTestSupport
import Testing

/// Our exported object as clients written by others see it: busctl (sd-bus),
/// gdbus (GDBus), dbus-send (libdbus) and python3's dbus module.
@Suite struct ClientToolsTests {
    /// EchoAll's arguments as typed on a busctl command line.
    static let busctlArguments = [
        "ybnqiuxtdsogayasa{sv}(is)v",
        "255", "true", "-32768", "65535", "-2147483648", "4294967295",
        "-9223372036854775808", "18446744073709551615", "-1.5",
        "grüße ✓ \"quoted\"", "/a/b_c/D1", "a{sv}(ii)",
        "3", "0", "1", "255",
        "2", "x", "",
        "2", "n", "i", "7", "nested", "v", "ax", "2", "1", "-1",
        "42", "answer",
        "a{sas}", "1", "k", "1", "v",
    ]

    @Test func busctlRoundTripsEveryType() async throws {
        let service = try await TestService()
        let result = try await Command.run("busctl", [
            "--address=\(service.bus.address)", "--json=short", "call", "--",
            TestService.name.rawValue, TestService.path.rawValue, TestService.interface.rawValue, "EchoAll",
        ] + Self.busctlArguments)
        #expect(result.status == 0, "\(result)")
        #expect(service.lastEchoAll.withLock { $0 } == TestService.everyValue)
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(json?["type"] as? String == "ybnqiuxtdsogayasa{sv}(is)v")
        let data = json?["data"] as? [Any] ?? []
        #expect(data.count == TestService.everyValue.count)
        #expect(data.first as? Int == 255)
        #expect(data[safe: 6] as? Int64 == Int64.min)
        #expect((data[safe: 7] as? NSNumber)?.uint64Value == UInt64.max)
        #expect(data[safe: 9] as? String == "grüße ✓ \"quoted\"")
        #expect(data[safe: 12] as? [Int] == [0, 1, 255])
        #expect(data[safe: 13] as? [String] == ["x", ""])
        let dictionary = data[safe: 14] as? [String: Any]
        #expect((dictionary?["n"] as? [String: Any])?["data"] as? Int == 7)
        let structure = data[safe: 15] as? [Any]
        #expect(structure?.first as? Int == 42)
        #expect(structure?.last as? String == "answer")
    }

    @Test func gdbusRoundTripsEveryType() async throws {
        let service = try await TestService()
        let result = try await Command.run("gdbus", [
            "call", "--address", service.bus.address, "--dest", TestService.name.rawValue,
            "--object-path", TestService.path.rawValue, "--method", "\(TestService.interface.rawValue).EchoAll",
            "--", "255", "true", "-32768", "65535", "-2147483648", "4294967295",
            "-9223372036854775808", "18446744073709551615", "-1.5",
            "'grüße ✓ \"quoted\"'", "'/a/b_c/D1'", "'a{sv}(ii)'", "[0, 1, 255]", "['x', '']",
            "{'n': <int32 7>, 'nested': <<[int64 1, -1]>>}", "(42, 'answer')", "<{'k': ['v']}>",
        ])
        #expect(result.status == 0, "\(result)")
        #expect(service.lastEchoAll.withLock { $0 } == TestService.everyValue)
        let expected = "(byte 0xff, true, int16 -32768, uint16 65535, -2147483648, uint32 4294967295, "
            + "int64 -9223372036854775808, uint64 18446744073709551615, -1.5, 'grüße ✓ \"quoted\"', "
            + "objectpath '/a/b_c/D1', signature 'a{sv}(ii)', [byte 0x00, 0x01, 0xff], ['x', ''], "
            + "{'n': <7>, 'nested': <<[int64 1, -1]>>}, (42, 'answer'), <{'k': ['v']}>)"
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == expected)
    }

    struct SendCase: Sendable {
        let argument: String
        let expected: Value
        let printed: String
    }

    static let dbusSendCases: [SendCase] = [
        SendCase(argument: "variant:byte:7", expected: .byte(7), printed: "byte 7"),
        SendCase(argument: "variant:boolean:true", expected: .boolean(true), printed: "boolean true"),
        SendCase(argument: "variant:int16:-5", expected: .int16(-5), printed: "int16 -5"),
        SendCase(argument: "variant:uint16:5", expected: .uint16(5), printed: "uint16 5"),
        SendCase(argument: "variant:int32:-7", expected: .int32(-7), printed: "int32 -7"),
        SendCase(argument: "variant:uint32:7", expected: .uint32(7), printed: "uint32 7"),
        SendCase(argument: "variant:int64:-9000000000", expected: .int64(-9_000_000_000), printed: "int64 -9000000000"),
        SendCase(argument: "variant:uint64:9000000000", expected: .uint64(9_000_000_000), printed: "uint64 9000000000"),
        SendCase(argument: "variant:double:2.5", expected: .double(2.5), printed: "double 2.5"),
        SendCase(argument: "variant:string:hello", expected: .string("hello"), printed: "string \"hello\""),
        SendCase(argument: "variant:objpath:/x/y", expected: .objectPath("/x/y"), printed: "object path \"/x/y\""),
    ]

    @Test(arguments: dbusSendCases.indices)
    func dbusSendRoundTripsBasicTypes(_ index: Int) async throws {
        let sendCase = Self.dbusSendCases[index]
        let service = try await TestService()
        let result = try await Command.run("dbus-send", [
            "--bus=\(service.bus.address)", "--print-reply", "--dest=\(TestService.name.rawValue)",
            TestService.path.rawValue, "\(TestService.interface.rawValue).Echo", sendCase.argument,
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("variant       \(sendCase.printed)"), "\(result.stdout)")
    }

    @Test func dbusSendSeesTheCustomErrorName() async throws {
        let service = try await TestService()
        let result = try await Command.run("dbus-send", [
            "--bus=\(service.bus.address)", "--print-reply", "--dest=\(TestService.name.rawValue)",
            TestService.path.rawValue, "\(TestService.interface.rawValue).Fail",
            "string:org.quickactions.Test.Error.Custom", "string:told you",
        ])
        #expect(result.status != 0)
        #expect(result.stderr.contains("org.quickactions.Test.Error.Custom: told you"), "\(result)")
    }

    @Test func pythonDbusRoundTripsEveryTypeAndNestedVariants() async throws {
        let service = try await TestService()
        let script = PackagePaths.root.appendingPathComponent("Tests/DBusTests/Conformance/roundtrip.py").path
        let result = try await Command.run("/usr/bin/python3", [script], environment: service.environment)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("ok "), "\(result)")
        #expect(service.lastEchoAll.withLock { $0 } == TestService.everyValue)
    }

    @Test func glibReadsAMarshalledMessage() async throws {
        let message = try Message.methodCall(destination: TestService.name, path: TestService.path,
                                             interface: TestService.interface, member: "Echo")
        try message.append([.string("grüße"), .dictionary(key: .string, value: .variant, [
            DictionaryEntry(.string("n"), .variant(.int64(-7))),
            DictionaryEntry(.string("list"), .variant(.array(.uint32, [.uint32(1), .uint32(2)]))),
        ])])
        let bytes = try message.marshalled()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("qa-marshal-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("message.dbus")
        try Data(bytes).write(to: file)
        // GLib's own parser (GDBusMessage.new_from_blob) reads the bytes back.
        let script = """
            import sys, gi
            gi.require_version("Gio", "2.0")
            from gi.repository import Gio
            blob = open(sys.argv[1], "rb").read()
            message = Gio.DBusMessage.new_from_blob(blob, Gio.DBusCapabilityFlags.NONE)
            print(message.get_member(), message.get_path(), message.get_destination())
            print(message.get_body().print_(True))
            """
        let result = try await Command.run("/usr/bin/python3", ["-c", script, file.path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == """
            Echo /org/quickactions/Test org.quickactions.Test
            ('grüße', {'n': <int64 -7>, 'list': <[uint32 1, 2]>})

            """, "\(result)")
    }

    @Test func gdbusIntrospectParsesOurIntrospection() async throws {
        let service = try await TestService()
        try service.server.export([], at: "/org/quickactions/Test/child")
        let result = try await Command.run("gdbus", [
            "introspect", "--address", service.bus.address, "--dest", TestService.name.rawValue,
            "--object-path", TestService.path.rawValue,
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Later(in  u milliseconds,"), "\(result.stdout)")
        #expect(result.stdout.contains("out s thread);"))
        #expect(result.stdout.contains("readwrite s Label"))
        #expect(result.stdout.contains("node child"))
        #expect(result.stdout.contains("interface org.freedesktop.DBus.ObjectManager"))
        let tree = try await Command.run("busctl", ["--address=\(service.bus.address)", "tree", TestService.name.rawValue])
        #expect(tree.status == 0, "\(tree)")
        #expect(tree.stdout.contains("/org/quickactions/Test/child"), "\(tree.stdout)")
    }
}

extension Array {
    subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
