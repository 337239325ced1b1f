import DBus
import QuickActionsCLI
import Testing

@Suite("Broker errors to exit codes")
struct ErrorMappingTests {
    static let cases: [(String, ExitCode)] = [
        ("org.quickactions.Error.UnknownApplication", .notFound),
        ("org.quickactions.Error.UnknownItem", .notFound),
        ("org.quickactions.Error.PluginFailed", .pluginFailed),
        ("org.quickactions.Error.Timeout", .pluginFailed),
        ("org.freedesktop.DBus.Error.ServiceUnknown", .unreachable),
        ("org.freedesktop.DBus.Error.NameHasNoOwner", .unreachable),
        ("org.freedesktop.DBus.Error.Spawn.ChildExited", .unreachable),
        ("org.freedesktop.DBus.Error.NoReply", .unreachable),
        ("org.freedesktop.DBus.Error.Disconnected", .unreachable),
        ("org.freedesktop.DBus.Error.InvalidArgs", .usage),
        ("org.freedesktop.DBus.Error.LimitsExceeded", .failure),
        ("org.freedesktop.DBus.Error.UnknownMethod", .failure),
    ]

    @Test("each error name maps to its documented exit code", arguments: cases)
    func mapping(_ name: String, _ code: ExitCode) throws {
        let error = DBusError(try ErrorName(name), "what was wrong\nwith 'x'")
        let mapped = BrokerErrorMapping.map(error, globals: GlobalOptions(), calling: "GetItems")
        #expect(mapped.exitCode == code)
        #expect(mapped.errorName == name, "--json's error object carries the D-Bus name")
        #expect(!mapped.description.contains("\n"), "one line: \(mapped.description)")
    }

    @Test("a broker that is not running: the message names the bus and how to start it")
    func notRunning() {
        let error = DBusError(.serviceUnknown, "The name is not activatable")
        let session = BrokerErrorMapping.map(error, globals: GlobalOptions(), calling: "GetItems")
        #expect(session.description
            == "the broker (org.quickactions.Broker1) is not running on the session bus; start it with "
            + "'systemctl --user start quickactionsd' or run 'quickactionsd'")
        let private_ = BrokerErrorMapping.map(error, globals: GlobalOptions(bus: .address("unix:path=/b")), calling: "x")
        #expect(private_.description.contains("on the bus at unix:path=/b; start it with 'quickactionsd --address unix:path=/b'"))
    }

    @Test("the broker's own message is passed on for unknown apps and items")
    func passesMessage() {
        let error = DBusError(ErrorName("org.quickactions.Error.UnknownApplication"), "no app 'x.y'")
        #expect(BrokerErrorMapping.map(error, globals: GlobalOptions(), calling: "GetItems") 
            == .notFound("no app 'x.y'", name: "org.quickactions.Error.UnknownApplication"))
    }
}
