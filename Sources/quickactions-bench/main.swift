import DBus
import Foundation
import Glibc
import QuickActionsAPI
import QuickActionsTestSupport

/// Prints one progress line on stderr.
func progress(_ line: String) {
    FileHandle.standardError.write(Data("quickactions-bench: \(line)\n".utf8))
}

/// A full run: a private bus, the subjects, the measurements, the report.
func runBenchmark(_ options: BenchOptions) throws(BenchError) -> BenchResults {
    try Products.require(Products.floor)
    if options.includeBroker || options.onlyListingContention || options.onlyProviders || options.onlyLaunches {
        try Products.require(Products.broker)
        try Products.require(Products.plugin)
        try Products.require(Products.swiftPlugin)
        try Products.require(Products.host)
    }
    try Products.require(Products.relay)
    let machine = Machine.current()
    let work: URL
    let bus: TestBus
    let connection: Connection
    do {
        work = try TemporaryDirectory.make(prefix: "qa-bench")
    } catch {
        throw .file(path: "$TMPDIR", reason: "\(error)")
    }
    bus = try waitFor("the private bus") { try await TestBus() }
    do {
        connection = try Connection(.address(bus.address))
    } catch {
        bus.stop()
        try? FileManager.default.removeItem(at: work)
        throw .subject(name: "the private bus", reason: "\(error)")
    }
    defer {
        connection.close()
        bus.stop()
        try? FileManager.default.removeItem(at: work)
    }
    let busPID = connection.processID(of: "org.freedesktop.DBus")
    func listingContention() throws(BenchError) -> ListingContentionResults {
        try ListingContentionBenchmark(
            benchmark: BrokerBenchmark(options: options, bus: bus, connection: connection, work: work, busPID: busPID,
                                       progress: progress),
            bundles: options.contentionBundles, rounds: options.contentionRounds,
            performCalls: options.contentionPerforms).run()
    }
    func providers() throws(BenchError) -> ProviderResults {
        try ProviderBenchmark(
            benchmark: BrokerBenchmark(options: options, bus: bus, connection: connection, work: work, busPID: busPID,
                                       progress: progress)).run()
    }
    if options.onlyProviders {
        return BenchResults(machine: machine, command: CommandLine.arguments.joined(separator: " "),
                            perform: PerformResults(rounds: 0, depth: 0, sequentialCalls: 0, pipelinedCalls: 0,
                                                    subjects: [], ratios: []),
                            broker: nil, providers: try providers())
    }
    if options.onlyLaunches {
        let hosts = try HostBenchmark(
            benchmark: BrokerBenchmark(options: options, bus: bus, connection: connection, work: work, busPID: busPID,
                                       progress: progress)).run()
        return BenchResults(machine: machine, command: CommandLine.arguments.joined(separator: " "),
                            perform: PerformResults(rounds: 0, depth: 0, sequentialCalls: 0, pipelinedCalls: 0,
                                                    subjects: [], ratios: []),
                            broker: nil, hosts: hosts)
    }
    if options.onlyListingContention {
        return BenchResults(machine: machine, command: CommandLine.arguments.joined(separator: " "),
                            perform: PerformResults(rounds: 0, depth: 0, sequentialCalls: 0, pipelinedCalls: 0,
                                                    subjects: [], ratios: []),
                            broker: nil, listingContention: try listingContention())
    }

    var subjects: [(subject: Subject, template: CallTemplate)] = []
    defer { subjects.forEach { $0.subject.stop() } }
    /// Starts a responder that owns `busName` and answers Perform like the broker.
    func responder(_ label: String, _ busName: BusName, _ command: [String]) throws(BenchError) {
        let subject = try Subject(name: label, busName: busName, command: command, directory: work,
                                  connection: connection)
        subjects.append((subject, .perform(destination: busName, appID: BundleGenerator.performAppID,
                                           type: BundleGenerator.performType)))
    }
    let floorName: BusName = "org.quickactions.Bench.Floor"
    try responder("floor", floorName, [Products.floor.path, bus.address, floorName.rawValue])
    // The floor again, as a subject of its own: its ratio against the floor is
    // what noise alone does to a ratio in this run.
    let againName: BusName = "org.quickactions.Bench.Floor2"
    try responder(Report.noiseSubject, againName, [Products.floor.path, bus.address, againName.rawValue])
    // The floor answering with the message the plugins complete with: the very reply the
    // broker sends for them, so the bus and the client carry the same bytes for both.
    let messageName: BusName = "org.quickactions.Bench.FloorMessage"
    try responder(Report.messageFloorSubject, messageName,
                  [Products.floor.path, "--message", BundleGenerator.message, bus.address, messageName.rawValue])
    let echoName: BusName = "org.quickactions.Bench.Echo"
    try responder("swift-echo", echoName,
                  [Products.selfExecutable.path, "echo-responder", bus.address, echoName.rawValue])
    let typedName: BusName = "org.quickactions.Bench.TypedEcho"
    try responder("swift-echo-typed", typedName,
                  [Products.selfExecutable.path, "echo-responder", bus.address, typedName.rawValue, "--typed"])
    if options.includePython {
        let gdbusName: BusName = "org.quickactions.Bench.GDBus"
        try responder("gdbus", gdbusName,
                      [Products.python.path, "-c", PythonResponders.gdbus, bus.address, gdbusName.rawValue])
        let pythonName: BusName = "org.quickactions.Bench.DBusPython"
        try responder("dbus-python", pythonName,
                      [Products.python.path, "-c", PythonResponders.dbusPython, bus.address, pythonName.rawValue])
    }
    // The floor of an isolated broker (issue 14): one extra hop to a C host process.
    let relayName: BusName = "org.quickactions.Bench.Relay"
    // It answers with the plugins' message, as the broker's hosts do for the apps its bars
    // name: the same reply, byte for byte (FloorReplyTests).
    try responder("relay", relayName, [Products.relay.path, "--message", BundleGenerator.message,
                                       bus.address, relayName.rawValue])
    if let relay = subjects.last?.subject {
        let relayPID = relay.pid
        relay.helper = { ProcessStats.children(of: relayPID).first }
    }
    let brokerBenchmark = BrokerBenchmark(options: options, bus: bus, connection: connection, work: work,
                                          busPID: busPID, progress: progress)
    if options.includeBroker {
        // One broker, three apps in its process (pinned with --in-process: issue 17's
        // fast path): the C plugin without a message (a reply encoded beforehand), the C
        // plugin with one, the Swift SDK plugin with one. Then the same three plugins as
        // three more apps in plugin host processes (issue 14), kept warm for the run.
        let pinned = BundleGenerator.inProcessAppIDs.flatMap { ["--in-process", $0] }
        let broker = try brokerBenchmark.startBroker(
            plugins: [brokerBenchmark.performFolder()], label: "broker",
            extra: pinned + ["--host-idle-seconds", "86400"])
        for (label, appID, type) in [
            ("broker", BundleGenerator.performAppID, BundleGenerator.performType),
            ("broker-c-message", BundleGenerator.cMessageAppID, BundleGenerator.messageType),
            ("broker-swift-message", BundleGenerator.swiftMessageAppID, BundleGenerator.messageType),
        ] {
            let subject = label == "broker" ? broker : Subject(alias: label, of: broker)
            subjects.append((subject, .perform(destination: BrokerBenchmark.busName, appID: appID, type: type)))
        }
        for (label, appID, type) in [
            ("broker-host", BundleGenerator.hostPerformAppID, BundleGenerator.performType),
            ("broker-host-c-message", BundleGenerator.hostCMessageAppID, BundleGenerator.messageType),
            ("broker-host-swift-message", BundleGenerator.hostSwiftMessageAppID, BundleGenerator.messageType),
        ] {
            subjects.append((Subject(alias: label, of: broker, hostOf: appID),
                             .perform(destination: BrokerBenchmark.busName, appID: appID, type: type)))
        }
        // The message floor answers with BundleGenerator.message on the word of the plugins'
        // sources: checked here, so the broker and its floor cannot drift into unequal replies.
        for appID in [BundleGenerator.cMessageAppID, BundleGenerator.swiftMessageAppID,
                      BundleGenerator.hostCMessageAppID, BundleGenerator.hostSwiftMessageAppID] {
            let template = CallTemplate.perform(
                destination: BrokerBenchmark.busName, appID: appID, type: BundleGenerator.messageType)
            let reply = try connection.blockingCall(template, label: "\(appID) Perform")
            let message = reply.count == 2 ? reply[1].dictionary?[.string(BrokerAPI.ResultKey.message)]?.string : nil
            guard message == BundleGenerator.message else {
                throw .calls(subject: appID, reason: "completed with message \(message.map { "\"\($0)\"" } ?? "none"), "
                    + "but the message floor answers \"\(BundleGenerator.message)\"")
            }
        }
    }

    let perform = try PerformBenchmark(
        rounds: options.rounds, depth: options.depth, sequentialCalls: options.sequentialCalls,
        pipelinedCalls: options.pipelinedCalls, warmupCalls: options.warmupCalls,
        sweepDepths: options.sweepDepths, sweepRounds: options.sweepRounds
    ).run(subjects: subjects, connection: connection, busPID: busPID, progress: progress)
    subjects.forEach { $0.subject.stop() }
    subjects.removeAll()

    let broker = options.includeBroker ? try brokerBenchmark.run() : nil
    let hosts = options.includeBroker ? try HostBenchmark(benchmark: brokerBenchmark).run() : nil
    let contention = options.includeBroker && options.includeListingContention ? try listingContention() : nil
    let provided = options.includeBroker && options.includeProviders ? try providers() : nil
    return BenchResults(machine: machine, command: CommandLine.arguments.joined(separator: " "),
                        perform: perform, broker: broker, hosts: hosts, listingContention: contention,
                        providers: provided)
}

func main() -> Int32 {
    let arguments = Array(CommandLine.arguments.dropFirst())
    do throws(BenchError) {
        if arguments.contains("-h") || arguments.contains("--help") {
            print(BenchOptions.help)
            return 0
        }
        if arguments.first == "echo-responder" {
            guard arguments.count == 3 || (arguments.count == 4 && arguments[3] == "--typed") else {
                throw .usage("echo-responder needs ADDRESS and NAME, then --typed or nothing")
            }
            try EchoResponder.run(address: arguments[1], name: arguments[2], typed: arguments.count == 4)
        }
        if arguments.first == "drive" {
            try ProfilingCommands.drive(Array(arguments.dropFirst()))
            return 0
        }
        if arguments.first == "host-broker" {
            try ProfilingCommands.hostBroker(Array(arguments.dropFirst()))
        }
        if arguments.first == "parse-bookmarks" {
            try BookmarkParseBenchmark.child(Array(arguments.dropFirst()))
            return 0
        }
        if arguments.first == "read-applications" {
            try ProfilingCommands.readApplications(Array(arguments.dropFirst()))
            return 0
        }
        if arguments.first == "make-entries" {
            try ProfilingCommands.makeEntries(Array(arguments.dropFirst()))
            return 0
        }
        if arguments.first == "make-bundles" {
            try ProfilingCommands.makeBundles(Array(arguments.dropFirst()))
            return 0
        }
        let options = try BenchOptions.parse(arguments)
        if options.onlyStartup {
            print(try StartupBenchmark.runAlone(options))
            return 0
        }
        let results = try runBenchmark(options)
        let section = Report.markdown(results)
        if options.json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            guard let data = try? encoder.encode(results) else {
                throw .file(path: "stdout", reason: "cannot encode the results as JSON")
            }
            FileHandle.standardOutput.write(data)
            print("")
        } else {
            print(section)
        }
        let directory = options.resultsDirectory ?? options.writePath.map(ResultsFile.defaultDirectory(beside:))
        if let directory {
            let file = try ResultsFile.write(results, into: directory)
            progress("results written to \(file)")
            if let path = options.writePath {
                try ResultsFile.render(document: path, results: file)
                progress("\(path) rendered from them")
            }
        }
        return 0
    } catch {
        FileHandle.standardError.write(Data("quickactions-bench: \(error)\n".utf8))
        if case .usage = error { return 2 }
        return 1
    }
}

exit(main())
