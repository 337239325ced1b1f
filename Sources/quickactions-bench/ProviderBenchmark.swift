import Foundation

/// Issue 33 §6, the item providers' cost: start-up and memory with 1,000 installed entries
/// (``ProviderStartupBenchmark``), a 20,000-bookmark parse (``BookmarkParseBenchmark``) and
/// an idle broker's CPU (``IdleBenchmark``).
struct ProviderBenchmark {
    let benchmark: BrokerBenchmark

    func run() throws(BenchError) -> ProviderResults {
        let options = benchmark.options
        let parse = try BookmarkParseBenchmark.run(
            bookmarks: options.providerBookmarks, rounds: options.providerRounds, work: benchmark.work,
            progress: benchmark.progress)
        let startup = try ProviderStartupBenchmark(
            rig: ProviderRig(benchmark: benchmark, entries: options.providerEntries, bookmarks: 0),
            rounds: options.providerRounds).run()
        let idle = try IdleBenchmark(
            rig: ProviderRig(benchmark: benchmark, entries: options.providerEntries, bookmarks: options.idleBookmarks),
            seconds: options.idleSeconds).run()
        return ProviderResults(startup: startup, parse: parse, idle: idle)
    }

    static func targetRows(_ results: ProviderResults?) -> [Report.Row] {
        guard let results else { return [] }
        return ProviderStartupBenchmark.targetRows(results.startup) + BookmarkParseBenchmark.targetRows(results.parse)
            + IdleBenchmark.targetRows(results.idle)
    }
}

struct ProviderResults: Codable, Sendable {
    var startup: ProviderStartupResults
    var parse: BookmarkParseResults
    var idle: IdleResults
}
