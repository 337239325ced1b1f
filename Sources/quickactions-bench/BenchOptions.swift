/// The command line of `quickactions-bench run` (the default command).
struct BenchOptions {
    var rounds = 7
    var depth = 64
    var sequentialCalls = 3_000
    var pipelinedCalls = 15_000
    var warmupCalls = 2_000
    /// Bundle counts for the start-up measurement; the last one is also
    /// used for listing and idle memory.
    var startupBundles = [0, 100, 1_000]
    var startupRepeats = 3
    /// Only the start-up measurement (``StartupBenchmark/runAlone(_:)``): no responders, no
    /// Perform rounds, no GetAllItems.
    var onlyStartup = false
    var getItemsCalls = 2_000
    var getAllItemsCalls = 30
    var launchApps = 10
    var performsForMemory = 100_000
    /// Apps launched once each in plugin hosts, half C and half Swift (issue 14's
    /// launch and memory bars; 50 hosts at once is its bar).
    var hostApps = 50
    /// Launches of each plugin kind in hosts (issue 35: the tail over 1,000 launches), in
    /// batches of `hostApps` fresh hosts.
    var launches = 1_000
    /// Pipelined depths measured beside 1 and `depth`, for the throughput-depth plot, and
    /// the rounds and calls per run there.
    var sweepDepths = [4, 16]
    var sweepRounds = 3
    var includeBroker = true
    /// The GDBus and dbus-python responders (python3 with gi and dbus).
    var includePython = true
    var json = false
    /// Issue 17's listing bar (ListingContentionBenchmark): bundles, rounds, Performs per run.
    var contentionBundles = 10_000
    var contentionRounds = 3
    var contentionPerforms = 4_000
    var includeListingContention = true
    var onlyListingContention = false
    /// Issue 33 §6 (ProviderBenchmark): installed entries, rounds, idle seconds, bookmarks.
    var providerEntries = 1_000
    var providerRounds = 7
    var providerBookmarks = 20_000
    var idleSeconds = 10
    /// Bookmarks in the idle broker's recently-used.xbel.
    var idleBookmarks = 500
    var includeProviders = true
    var onlyProviders = false
    /// Only the launches in plugin hosts (``HostBenchmark``): issue 35's launch tail, alone.
    var onlyLaunches = false
    var writePath: String?
    /// Where the run's results file goes: given with --results, or benchmarks/results
    /// beside the --write document.
    var resultsDirectory: String?

    static let help = """
        quickactions-bench: the broker next to a plain libdbus floor, on a private bus, in one run.

        USAGE: quickactions-bench [run] [options]
               quickactions-bench echo-responder ADDRESS NAME [--typed]
               quickactions-bench drive ADDRESS NAME CALLS DEPTH [METHOD]
               quickactions-bench make-bundles DIR COUNT
               quickactions-bench make-entries DATA_DIR COUNT
               quickactions-bench read-applications DATA_DIR [TIMES]
               quickactions-bench host-broker ADDRESS STATE_DIR PLUGIN_DIR...
               quickactions-bench parse-bookmarks COUNT ROUNDS FILE

        Starts a private dbus-daemon (dbus/test-bus.conf), the C floor responder
        (qa-bench-floor), the Swift binding's echo responder ([Value] and typed),
        a GDBus and a dbus-python responder (python3 with gi and dbus), and the
        broker (quickactionsd with the benchmark plugins: C without a message,
        C and Swift SDK with one), found beside this executable.
        Drives each with the same load generator: sequential calls and pipelined
        calls, in alternating rounds; then measures the broker's listing, start-up,
        launch and memory; then 50 apps (C and Swift SDK plugins) launched once each in
        plugin hosts, for launch times and memory; the relay floor (qa-bench-relay,
        one extra hop to a C host process) is the mark for the broker's apps in
        plugin hosts; then the item providers' cost (issue 33 §6): start-up and
        memory among 1,000 installed desktop entries, providers on against off, a
        20,000-bookmark parse, and an idle broker's CPU. Prints a report (or JSON) on stdout, progress on stderr.

        OPTIONS:
          --rounds N            alternating rounds (default 7)
          --sequential N        calls per sequential run (default 3000)
          --pipelined N         calls per pipelined run (default 15000)
          --depth N             calls in flight when pipelined (default 64)
          --startup-bundles L   comma-separated bundle counts for start-up (default 0,100,1000)
          --startup-rounds N    alternating rounds of start-up (default 3)
          --startup-only        only the broker's start-up, with each count of --startup-bundles
                                in turn; prints each count's median and range and the cost per
                                bundle (the most bundles against the fewest, each round's own)
          --sweep-depths L      comma-separated further pipelined depths, for throughput
                                against depth ("" for none; default 4,16)
          --sweep-rounds N      alternating rounds at those depths (default 3)
          --launches N          first Performs in fresh plugin hosts of each plugin kind,
                                in batches of 50 hosts per broker (default 1000)
          --memory-performs N   Performs before the second memory reading (default 100000)
          --quick               a smoke run: a few hundred calls, small bundle sets
          --no-broker           measure the floor and the other responders only, no broker
          --no-python           leave out the GDBus and dbus-python responders
          --listing-contention-only
                                only Perform p99 alone and during GetManagedObjects loops
          --no-listing-contention
                                leave that measurement out
          --contention-bundles N  bundles for it (default 10000)
          --launches-only       only the first Performs in plugin hosts (--launches of each
                                plugin kind) and the idle hosts' memory
          --providers-only      only the item providers' cost (issue 33 §6): start-up and
                                memory with installed entries, the bookmark parse, idle CPU
          --no-providers        leave that measurement out
          --provider-entries N  installed desktop entries for it (default 1000)
          --provider-rounds N   alternating rounds of start-up and parse (default 7)
          --bookmarks N         bookmarks in the parsed file (default 20000)
          --idle-seconds N      how long the idle broker is watched (default 10)
          --results DIR         write the run's results (JSON, every figure's per-round
                                samples) to DIR/DATE-COMMIT.json; with --write it defaults
                                to benchmarks/results beside FILE
          --write FILE          write the results file, then render FILE's status table and
                                its plots from it (scripts/render-benchmarks.py)
          --json                print the results as JSON instead of the report
          -h, --help            show this help

        For profiling a responder started by hand (e.g. under valgrind
        --tool=callgrind): echo-responder runs the Swift echo responder (--typed:
        its Perform declared with Swift types); drive
        sends CALLS calls (DEPTH in flight) and prints one line of results
        (METHOD: Perform, PerformCMessage, PerformSwiftMessage, GetItems, GetAllItems);
        make-bundles writes COUNT listing bundles and the Perform bundles into DIR;
        make-entries writes the provider benchmarks' COUNT desktop entries into
        DATA_DIR/applications; read-applications reads them as quickactionsd's
        installed applications' index does at start-up (under callgrind, say);
        host-broker runs the broker in this process (quickactionsd's async main
        cannot run under valgrind 3.19).

        EXAMPLES:
          swift build -c release && .build/release/quickactions-bench --write BENCHMARKS.md
          scripts/render-benchmarks.py BENCHMARKS.md   (again, from the latest results file)
          .build/release/quickactions-bench --no-broker --rounds 3
          .build/release/quickactions-bench --startup-only --startup-bundles 0,1000 --startup-rounds 7
          .build/debug/quickactions-bench --quick --json

        EXIT STATUS: 0 done, 1 a measurement failed (a process died, calls failed), 2 usage error.
        """

    /// The smoke run's sizes: a few hundred calls in all.
    mutating func makeQuick() {
        rounds = 2
        sequentialCalls = 100
        pipelinedCalls = 300
        warmupCalls = 50
        startupBundles = [0, 20]
        startupRepeats = 1
        getItemsCalls = 50
        getAllItemsCalls = 3
        launchApps = 2
        performsForMemory = 300
        hostApps = 4
        launches = 4
        sweepDepths = [8]
        sweepRounds = 1
        contentionBundles = 200
        contentionRounds = 1
        contentionPerforms = 200
        providerEntries = 50
        providerRounds = 2
        providerBookmarks = 500
        idleSeconds = 1
        idleBookmarks = 20
    }

    static func parse(_ arguments: [String]) throws(BenchError) -> BenchOptions {
        var options = BenchOptions()
        var rest = arguments[...]
        if rest.first == "run" { rest = rest.dropFirst() }
        // --quick first, so explicit sizes after it still win.
        if rest.contains("--quick") { options.makeQuick() }
        func value(_ flag: String) throws(BenchError) -> String {
            guard let next = rest.popFirst() else { throw .usage("\(flag) needs a value") }
            return next
        }
        func count(_ flag: String, minimum: Int) throws(BenchError) -> Int {
            let text = try value(flag)
            guard let number = Int(text), number >= minimum else {
                throw .usage("\(flag) \"\(text)\" is not a whole number of at least \(minimum)")
            }
            return number
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--rounds": options.rounds = try count(argument, minimum: 1)
            case "--sequential": options.sequentialCalls = try count(argument, minimum: 1)
            case "--pipelined": options.pipelinedCalls = try count(argument, minimum: 1)
            case "--depth": options.depth = try count(argument, minimum: 1)
            case "--launches": options.launches = try count(argument, minimum: 1)
            case "--sweep-rounds": options.sweepRounds = try count(argument, minimum: 1)
            case "--sweep-depths":
                let text = try value(argument)
                let depths = text.split(separator: ",").map { Int($0) }
                guard depths.allSatisfy({ ($0 ?? 0) >= 1 }) else {
                    throw .usage("--sweep-depths \"\(text)\" is not a comma-separated list of depths")
                }
                options.sweepDepths = depths.compactMap { $0 }.sorted()
            case "--results": options.resultsDirectory = try value(argument)
            case "--memory-performs": options.performsForMemory = try count(argument, minimum: 1)
            case "--startup-bundles":
                let text = try value(argument)
                let counts = text.split(separator: ",").map { Int($0) }
                guard !counts.isEmpty, counts.allSatisfy({ ($0 ?? -1) >= 0 }) else {
                    throw .usage("--startup-bundles \"\(text)\" is not a comma-separated list of counts")
                }
                options.startupBundles = counts.compactMap { $0 }.sorted()
            case "--startup-rounds": options.startupRepeats = try count(argument, minimum: 1)
            case "--startup-only": options.onlyStartup = true
            case "--quick": continue
            case "--no-broker": options.includeBroker = false
            case "--no-python": options.includePython = false
            case "--listing-contention-only": options.onlyListingContention = true
            case "--no-listing-contention": options.includeListingContention = false
            case "--contention-bundles": options.contentionBundles = try count(argument, minimum: 1)
            case "--providers-only": options.onlyProviders = true
            case "--launches-only": options.onlyLaunches = true
            case "--no-providers": options.includeProviders = false
            case "--provider-entries": options.providerEntries = try count(argument, minimum: 1)
            case "--provider-rounds": options.providerRounds = try count(argument, minimum: 1)
            case "--bookmarks": options.providerBookmarks = try count(argument, minimum: 0)
            case "--idle-seconds": options.idleSeconds = try count(argument, minimum: 1)
            case "--json": options.json = true
            case "--write": options.writePath = try value(argument)
            default: throw .usage("unknown argument \"\(argument)\" (see --help)")
            }
        }
        return options
    }
}
