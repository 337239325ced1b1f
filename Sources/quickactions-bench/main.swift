import DBus
import Foundation
import Glibc
import QuickActionsTestSupport

/// Prints one progress line on stderr.
func progress(_ line: String) {
    FileHandle.standardError.write(Data("quickactions-bench: \(line)\n".utf8))
}

/// A full run: a private bus, the subjects, the measurements, the report.
func runBenchmark(_ options: BenchOptions) throws(BenchError) -> BenchResults {
    try Products.require(Products.floor)
    if options.includeBroker {
        try Products.require(Products.broker)
        try Products.require(Products.plugin)
    }
    let machine = Machine.current()
    let work: URL
    let bus: TestBus
    let connection: Connection
    do {
        work = try TemporaryDirectory.make(prefix: "qa-bench")
        bus = try TestBus()
        connection = try Connection(.address(bus.address))
    } catch {
        throw .subject(name: "the private bus", reason: "\(error)")
    }
    defer {
        connection.close()
        bus.stop()
        try? FileManager.default.removeItem(at: work)
    }
    let busPID = connection.processID(of: "org.freedesktop.DBus")

    let floorName: BusName = "org.quickactions.Bench.Floor"
    let echoName: BusName = "org.quickactions.Bench.Echo"
    var subjects: [(subject: Subject, template: CallTemplate)] = []
    defer { subjects.forEach { $0.subject.stop() } }
    let floor = try Subject(name: "floor", busName: floorName,
                            command: [Products.floor.path, bus.address, floorName.rawValue],
                            directory: work, connection: connection)
    subjects.append((floor, .perform(destination: floorName, appID: BundleGenerator.performAppID,
                                     type: BundleGenerator.performType)))
    let echo = try Subject(name: "swift-echo", busName: echoName,
                           command: [Products.selfExecutable.path, "echo-responder", bus.address, echoName.rawValue],
                           directory: work, connection: connection)
    subjects.append((echo, .perform(destination: echoName, appID: BundleGenerator.performAppID,
                                    type: BundleGenerator.performType)))
    let brokerBenchmark = BrokerBenchmark(options: options, bus: bus, connection: connection, work: work,
                                          progress: progress)
    if options.includeBroker {
        let broker = try brokerBenchmark.startBroker(plugins: [brokerBenchmark.performFolder()], label: "broker")
        subjects.append((broker, .perform(destination: BrokerBenchmark.busName, appID: BundleGenerator.performAppID,
                                          type: BundleGenerator.performType)))
    }

    let perform = try PerformBenchmark(
        rounds: options.rounds, depth: options.depth, sequentialCalls: options.sequentialCalls,
        pipelinedCalls: options.pipelinedCalls, warmupCalls: options.warmupCalls
    ).run(subjects: subjects, connection: connection, busPID: busPID, progress: progress)
    subjects.forEach { $0.subject.stop() }
    subjects.removeAll()

    let broker = options.includeBroker ? try brokerBenchmark.run() : nil
    return BenchResults(machine: machine, command: CommandLine.arguments.joined(separator: " "),
                        perform: perform, broker: broker)
}

/// `drive ADDRESS NAME CALLS DEPTH`: Performs against a responder someone else
/// started (under valgrind, say), then one line of results on stdout.
func drive(_ arguments: [String]) throws(BenchError) {
    guard arguments.count == 4, let calls = Int(arguments[2]), calls > 0, let depth = Int(arguments[3]), depth > 0 else {
        throw .usage("drive needs ADDRESS NAME CALLS DEPTH, got \"\(arguments.joined(separator: " "))\"")
    }
    let name: BusName
    do {
        name = try BusName(arguments[1])
    } catch {
        throw .usage("drive: \"\(arguments[1])\" is not a bus name: \(error)")
    }
    let connection: Connection
    do {
        connection = try Connection(.address(arguments[0]))
    } catch {
        throw .subject(name: "the bus at \(arguments[0])", reason: "\(error)")
    }
    defer { connection.close() }
    let template = CallTemplate.perform(destination: name, appID: BundleGenerator.performAppID,
                                        type: BundleGenerator.performType)
    let run = try LoadGenerator.run(template, on: connection, calls: calls, depth: depth, label: name.rawValue,
                                    timeout: .seconds(600))
    let summary = RunSummary(run)
    print(String(format: "%d calls, depth %d: %.0f calls/s, p50 %.0f µs, p99 %.0f µs",
                 calls, depth, summary.callsPerSecond, summary.p50, summary.p99))
}

func main() -> Int32 {
    let arguments = Array(CommandLine.arguments.dropFirst())
    do throws(BenchError) {
        if arguments.contains("-h") || arguments.contains("--help") {
            print(BenchOptions.help)
            return 0
        }
        if arguments.first == "echo-responder" {
            guard arguments.count == 3 else { throw .usage("echo-responder needs ADDRESS and NAME") }
            try EchoResponder.run(address: arguments[1], name: arguments[2])
        }
        if arguments.first == "drive" {
            try drive(Array(arguments.dropFirst()))
            return 0
        }
        let options = try BenchOptions.parse(arguments)
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
        if let path = options.writePath {
            try ReportFile.add(section, to: path)
            progress("results added to \(path)")
        }
        return 0
    } catch {
        FileHandle.standardError.write(Data("quickactions-bench: \(error)\n".utf8))
        if case .usage = error { return 2 }
        return 1
    }
}

exit(main())
