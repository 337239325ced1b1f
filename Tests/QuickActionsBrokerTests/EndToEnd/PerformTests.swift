import DBus
import QuickActionsAPI
import Foundation
import QuickActionsTestSupport
import Testing

/// Perform end to end: launch and resume, completions, timeouts, failures,
/// dynamic items and their signals.
@Suite struct PerformTests {
    static let broker = BrokerAPI.busName
    static let root = BrokerAPI.rootPath
    static let interface = BrokerAPI.interface

    static func options(_ entries: [(String, Value)] = []) -> Value {
        .dictionary(key: .string, value: .variant, entries.map { DictionaryEntry(.string($0.0), .variant($0.1)) })
    }

    static func perform(
        _ client: Connection, _ app: String, _ type: String, _ options: Value = options()
    ) async throws(DBusError) -> (success: Bool, result: [String: Value]) {
        let reply = try await client.call(destination: broker, path: root, interface: interface, member: BrokerAPI.Member.perform,
                                          [.string(app), .string(type), options], timeout: .seconds(30))
        guard reply.count == 2, case .boolean(let success) = reply[0],
              case .dictionary(_, _, let entries) = reply[1] else {
            throw DBusError(.failed, "unexpected Perform reply \(reply)")
        }
        var result: [String: Value] = [:]
        for entry in entries {
            if case .string(let key) = entry.key { result[key] = entry.value.unwrappedVariant }
        }
        return (success, result)
    }

    @Test func busctlPerformLaunchesThenResumes() async throws {
        let harness = try await BrokerHarness(bundles: [Fixtures.swiftApp])
        let first = try BusctlReply(try await harness.call("Perform", "ssa{sv}", ["org.example.swift", "hello", "0"]))
        #expect(first.type == "ba{sv}")
        #expect(first.data.first as? Bool == true)
        let firstResult = first.data.last as? [String: Any]
        #expect((firstResult?["activation"] as? [String: Any])?["data"] as? String == "launch")
        #expect((firstResult?["message"] as? [String: Any])?["data"] as? String == "calls=launch:hello,perform:hello")
        let second = try BusctlReply(try await harness.call("Perform", "ssa{sv}", ["org.example.swift", "hello", "0"]))
        let secondResult = second.data.last as? [String: Any]
        #expect((secondResult?["activation"] as? [String: Any])?["data"] as? String == "resume")
        #expect((secondResult?["message"] as? [String: Any])?["data"] as? String
                == "calls=launch:hello,perform:hello,perform:hello")
        let loaded = try await harness.busctl(["get-property", BrokerHarness.busName,
                                               "/org/quickactions/Broker1/apps/org_2eexample_2eswift",
                                               "org.quickactions.Application1", "Loaded"])
        #expect(loaded.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "b true")
    }

    @Test func anItemHandledAtLaunchIsNotPerformedAgain() async throws {
        let harness = try await BrokerHarness(bundles: [Fixtures.swiftApp])
        let client = try Connection(.address(harness.bus.address))
        let launched = try await Self.perform(client, "org.example.swift", "launch-handled")
        #expect(launched.success)
        #expect(launched.result["activation"] == .string("launch"))
        #expect(launched.result["message"] == .string("calls=launch:launch-handled"))
        let resumed = try await Self.perform(client, "org.example.swift", "hello")
        #expect(resumed.result["message"] == .string("calls=launch:launch-handled,perform:hello"))
    }

    @Test func theApplicationObjectPerformsToo() async throws {
        let harness = try await BrokerHarness(bundles: [Fixtures.cApp])
        let result = try await harness.busctl(["--json=short", "call", BrokerHarness.busName,
                                               "/org/quickactions/Broker1/apps/org_2eexample_2ec",
                                               "org.quickactions.Application1", "Perform", "sa{sv}", "succeed", "0"])
        let reply = try BusctlReply(result)
        #expect(reply.data.first as? Bool == true)
        let fields = reply.data.last as? [String: Any]
        #expect((fields?["activation"] as? [String: Any])?["data"] as? String == "launch")
    }

    @Test func aNeverCompletingPluginTimesOutWithoutDelayingOthers() async throws {
        let harness = try await BrokerHarness(bundles: [Fixtures.swiftApp, Fixtures.cApp])
        let client = try Connection(.address(harness.bus.address))
        _ = try await Self.perform(client, "org.example.swift", "hello")
        async let stuck = Self.perform(client, "org.example.swift", "never", Self.options([("timeout-ms", .uint32(3000))]))
        // While the stuck call waits, the other app and listing answer.
        for _ in 0..<20 {
            let other = try await Self.perform(client, "org.example.c", "succeed")
            #expect(other.success)
            let listed = try await client.call(destination: Self.broker, path: Self.root, interface: Self.interface,
                                               member: BrokerAPI.Member.getAllItems, [Self.options()])
            #expect(listed.count == 1)
        }
        do {
            let answer = try await stuck
            Issue.record("a never-completing Perform returned \(answer)")
        } catch let error as DBusError {
            #expect(error.name == BrokerAPI.ErrorNames.timeout)
            #expect(error.message.contains("3000 ms"))
        }
    }

    @Test func aPluginThatFailsToInitialiseGivesPluginFailed() async throws {
        let harness = try await BrokerHarness(bundles: [Fixtures.brokenApp])
        let client = try Connection(.address(harness.bus.address))
        do {
            _ = try await Self.perform(client, "org.example.broken", "hello")
            Issue.record("a plugin whose init fails performed")
        } catch {
            #expect(error.name == BrokerAPI.ErrorNames.pluginFailed)
            #expect(error.message.contains("org.example.broken"))
            #expect(error.message.contains("libQATestInitFails.so"))
        }
    }

    @Test func aSecondCompletionIsDroppedAndTheFirstAnswers() async throws {
        let harness = try await BrokerHarness(bundles: [Fixtures.swiftApp])
        let client = try Connection(.address(harness.bus.address))
        let result = try await Self.perform(client, "org.example.swift", "twice")
        #expect(result.success)
        #expect(result.result["message"] == .string("first"))
        #expect(await eventually { harness.log.contains("called again") }, "\(harness.log)")
    }

    @Test func dynamicItemsAppearWithSignalsAndArgumentsReachThePlugin() async throws {
        let harness = try await BrokerHarness(bundles: [Fixtures.swiftApp])
        let client = try Connection(.address(harness.bus.address))
        let signals = AsyncStream<String>.makeStream()
        let itemsChanged = try await client.subscribe(MatchRule(interface: Self.interface, member: BrokerAPI.Signal.itemsChanged)) { message in
            signals.continuation.yield("ItemsChanged \((try? message.arguments())?.first?.string ?? "")")
        }
        let propertiesChanged = try await client.subscribe(
            MatchRule(path: "/org/quickactions/Broker1/apps/org_2eexample_2eswift",
                      interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged")
        ) { message in
            guard let values = try? message.arguments(), case .dictionary(_, _, let entries) = values[1] else { return }
            signals.continuation.yield("PropertiesChanged " + entries.compactMap { $0.key.string }.sorted().joined(separator: ","))
        }
        let arguments = Self.options([
            ("text", .string("hi")), ("count", .int32(7)), ("big", .uint64(1 << 40)), ("ratio", .double(0.25)),
            ("on", .boolean(true)), ("bytes", .array(.byte, [.byte(1), .byte(2)])),
            ("list", .array(.string, [.string("a"), .string("b")])),
            ("nested", Self.options([("deep", .variant(.int16(-3)))])),
        ])
        // A listing before the change fills the broker's listing cache...
        func allItemsCount() async throws -> Int {
            let reply = try await client.call(destination: Self.broker, path: Self.root, interface: Self.interface,
                                              member: BrokerAPI.Member.getAllItems, [Self.options()])
            guard case .array(_, let groups)? = reply.first, case .structure(let fields)? = groups.first,
                  case .array(_, let items) = fields[1] else { return -1 }
            return items.count
        }
        #expect(try await allItemsCount() == 5)
        let result = try await Self.perform(client, "org.example.swift", "echo-items", Self.options([
            ("arguments", arguments), ("activation-token", .string("token-1")),
        ]))
        // ...which must not outlive it.
        #expect(try await allItemsCount() == 7)
        #expect(result.success)
        var seen: [String] = []
        var iterator = signals.stream.makeAsyncIterator()
        while seen.count < 3, let next = await iterator.next() { seen.append(next) }
        // HostPID changes with Loaded (a host started), announced in the same signal.
        #expect(seen.contains("PropertiesChanged HostPID,Loaded"))
        #expect(seen.contains("ItemsChanged org.example.swift"))
        #expect(seen.contains("PropertiesChanged Items"))

        let items = try await client.call(destination: Self.broker, path: Self.root, interface: Self.interface,
                                          member: BrokerAPI.Member.getItems, [.string("org.example.swift"), Self.options()])
        guard case .array(_, let list)? = items.first else {
            Issue.record("GetItems returned \(items)")
            return
        }
        let dynamic = list.filter { $0.dictionary?[.string("origin")]?.string == "dynamic" }
        #expect(dynamic.count == 2)
        #expect(list.count == 7)
        let echoed = try #require(dynamic.last?.dictionary)
        #expect(echoed[.string("type")]?.string == "arguments")
        #expect(echoed[.string("title")]?.string == "token-1")
        let info = try #require(echoed[.string("user-info")]?.dictionary)
        #expect(info[.string("text")]?.unwrappedVariant == .string("hi"))
        #expect(info[.string("count")]?.unwrappedVariant == .int64(7))
        #expect(info[.string("big")]?.unwrappedVariant == .int64(1 << 40))
        #expect(info[.string("ratio")]?.unwrappedVariant == .double(0.25))
        #expect(info[.string("on")]?.unwrappedVariant == .boolean(true))
        #expect(info[.string("bytes")]?.unwrappedVariant == .array(.byte, [.byte(1), .byte(2)]))
        #expect(info[.string("list")]?.unwrappedVariant == .array(.variant, [.variant(.string("a")), .variant(.string("b"))]))
        #expect(info[.string("nested")]?.dictionary?[.string("deep")]?.unwrappedVariant == .int64(-3))
        itemsChanged.cancel()
        propertiesChanged.cancel()
    }

    @Test func everyConcurrentPerformIsAnsweredExactlyOnce() async throws {
        let harness = try await BrokerHarness(bundles: [Fixtures.swiftApp, Fixtures.cApp])
        // Both plugins running first: 300 calls arriving while a host still launches would be
        // more than one caller may have pending (256).
        let client = try Connection(.address(harness.bus.address))
        defer { client.close() }
        _ = try await Self.perform(client, "org.example.swift", "hello")
        _ = try await Self.perform(client, "org.example.c", "succeed")
        let script = PackagePaths.root.appendingPathComponent("Tests/QuickActionsBrokerTests/Scripts/concurrent_performs.py")
        let result = try await Command.run("/usr/bin/python3", [script.path, "300"], environment: harness.bus.environment(),
                                           timeout: .seconds(120))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("answered 300 of 300 exactly once"), "\(result)")
    }

    @Test func aCallerThatLeavesHasItsPendingPerformsDropped() async throws {
        let harness = try await BrokerHarness(bundles: [Fixtures.swiftApp])
        let client = try Connection(.address(harness.bus.address))
        _ = try await Self.perform(client, "org.example.swift", "hello")
        let leaver = try Connection(.address(harness.bus.address))
        for _ in 0..<50 {
            let message = try Message.methodCall(destination: Self.broker, path: Self.root, interface: Self.interface,
                                                 member: BrokerAPI.Member.perform)
            try message.append([.string("org.example.swift"), .string("never"), Self.options()])
            leaver.call(message, timeout: .seconds(60)) { _ in }
        }
        // The broker has them all once a later call from the same caller is answered.
        _ = try await leaver.call(destination: Self.broker, path: Self.root, interface: Self.interface,
                                  member: BrokerAPI.Member.listApplications)
        leaver.close()
        #expect(await eventually { harness.log.contains("dropped its 50 pending Perform(s)") }, "\(harness.log)")
        let after = try await Self.perform(client, "org.example.swift", "hello")
        #expect(after.success)
    }

    @Test func moreThan256PendingFromOneCallerGetLimitsExceeded() async throws {
        let harness = try await BrokerHarness(bundles: [Fixtures.swiftApp])
        let greedy = try Connection(.address(harness.bus.address))
        let polite = try Connection(.address(harness.bus.address))
        _ = try await Self.perform(polite, "org.example.swift", "hello")
        let outcomes = Outcomes()
        for _ in 0..<300 {
            let message = try Message.methodCall(destination: Self.broker, path: Self.root, interface: Self.interface,
                                                 member: BrokerAPI.Member.perform)
            try message.append([.string("org.example.swift"), .string("never"), Self.options()])
            greedy.call(message, timeout: .seconds(60)) { result in
                if case .failure(let error) = result { outcomes.record(error.name.rawValue) }
            }
        }
        #expect(await eventually { outcomes.count == 44 }, "\(outcomes.names)")
        #expect(outcomes.names == Set(["org.freedesktop.DBus.Error.LimitsExceeded"]))
        // Another caller is unaffected.
        let other = try await Self.perform(polite, "org.example.swift", "hello")
        #expect(other.success)
        greedy.close()
    }
}

final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []

    func record(_ name: String) {
        lock.lock()
        defer { lock.unlock() }
        recorded.append(name)
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return recorded.count
    }

    var names: Set<String> {
        lock.lock()
        defer { lock.unlock() }
        return Set(recorded)
    }
}

/// User info at the depth limit must be listable through every method and
/// property that carries items; one level more is refused at the door.
@Suite struct DeepUserInfoTests {
    static func nested(_ levels: Int) -> Value {
        var value = Value.int64(1)
        for index in 1..<levels {
            value = index % 2 == 0
                ? .array(.variant, [.variant(value)])
                : .dictionary(key: .string, value: .variant, [DictionaryEntry(.string("d"), .variant(value))])
        }
        return value
    }

    @Test func itemsAtTheDepthLimitAreListedEverywhere() async throws {
        let harness = try await BrokerHarness(bundles: [Fixtures.swiftApp])
        let client = try Connection(.address(harness.bus.address))
        let limit = 18
        // Inside the arguments dictionary a value of limit - 1 levels makes user info of `limit` levels.
        let arguments = PerformTests.options([("deep", Self.nested(limit - 1))])
        let result = try await PerformTests.perform(client, "org.example.swift", "echo-items",
                                                    PerformTests.options([("arguments", arguments)]))
        #expect(result.success)
        let calls: [(ObjectPath, InterfaceName, MemberName, [Value])] = [
            (PerformTests.root, PerformTests.interface, "GetItems", [.string("org.example.swift"), PerformTests.options()]),
            (PerformTests.root, PerformTests.interface, "GetAllItems", [PerformTests.options()]),
            ("/org/quickactions/Broker1/apps/org_2eexample_2eswift", "org.freedesktop.DBus.Properties", "Get",
             [.string("org.quickactions.Application1"), .string("Items")]),
            (PerformTests.root, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects", []),
        ]
        for (path, interface, member, arguments) in calls {
            let reply = try await client.call(destination: PerformTests.broker, path: path, interface: interface,
                                              member: member, arguments)
            #expect("\(reply)".contains("int64 1"), "\(member.rawValue) lost the deep value")
        }
        do {
            let tooDeep = PerformTests.options([("deep", Self.nested(limit))])
            _ = try await PerformTests.perform(client, "org.example.swift", "echo-items",
                                               PerformTests.options([("arguments", tooDeep)]))
            Issue.record("user info one level past the limit was accepted")
        } catch {
            #expect(error.name == .invalidArgs)
            #expect(error.message.contains("arguments.deep"))
        }
    }
}

/// Host1 protocol 1.1: once the host keeps a request, the broker leaves its item out; every
/// call must still reach the plugin with exactly its own item and request.
@Suite struct KeptRequestTests {
    /// The `arguments` item echo-items published: what the plugin got as the caller's data.
    static func echoedArguments(_ client: Connection) async throws -> Value? {
        let reply = try await client.call(
            destination: PerformTests.broker, path: PerformTests.root, interface: PerformTests.interface,
            member: "GetItems", [.string("org.example.swift"), PerformTests.options()])
        guard case .array(_, let items) = try #require(reply.first) else { return nil }
        for item in items {
            guard case .dictionary(_, _, let entries) = item else { continue }
            var fields: [String: Value] = [:]
            for entry in entries {
                if case .string(let key) = entry.key { fields[key] = entry.value.unwrappedVariant }
            }
            if fields["type"] == .string("arguments") { return fields["user-info"] }
        }
        return nil
    }

    @Test("repeated, interleaved requests each reach the plugin with their own arguments",
          arguments: [TestPluginHost.hostsOnly, ["--plugin-host", "in-process"]])
    func interleaved(_ mode: [String]) async throws {
        let harness = try await BrokerHarness(bundles: [Fixtures.swiftApp], arguments: mode)
        let client = try Connection(.address(harness.bus.address))
        defer { client.close() }
        // The launch, then each request in full (kept), then left out, interleaved.
        for n in [1, 1, 1, 2, 2, 1, 2, 3, 1] {
            try await Self.expectEchoed(n, by: client, "call with n=\(n)")
        }
    }

    /// Performs echo-items with `arguments` {"n": n} and checks that the plugin saw exactly those.
    static func expectEchoed(_ n: Int, by client: Connection, _ label: String) async throws {
        let arguments = PerformTests.options([("n", .int64(Int64(n)))])
        let result = try await PerformTests.perform(client, "org.example.swift", "echo-items",
                                                    PerformTests.options([("arguments", arguments)]))
        #expect(result.success, "\(label): \(result)")
        let echoed = try await Self.echoedArguments(client)
        #expect(echoed == .dictionary(key: .string, value: .variant, [DictionaryEntry(.string("n"), .variant(.int64(Int64(n))))]),
                "\(label): \(String(describing: echoed))")
    }

    @Test("more distinct requests than either side keeps, twice over: each still gets its own arguments",
          arguments: [TestPluginHost.hostsOnly, ["--plugin-host", "in-process"]])
    func beyondTheCaches(_ mode: [String]) async throws {
        let harness = try await BrokerHarness(bundles: [Fixtures.swiftApp], arguments: mode)
        let client = try Connection(.address(harness.bus.address))
        defer { client.close() }
        // 70 distinct requests fill the broker's and the host's 64 kept requests and start
        // them over; the second pass asks again for requests either side may have dropped.
        for pass in 0..<2 {
            for n in 0..<70 {
                try await Self.expectEchoed(n, by: client, "pass \(pass), n=\(n)")
            }
        }
    }
}
