import Foundation
import Glibc
import QuickActionsProviders
import QuickActionsTestSupport

/// Issue 33 §6's parse bar: a Desktop Bookmark file of 20,000 bookmarks
/// (`BookmarkFileSample.xbel`, as GLib writes one) parses in ≤ 100 ms with bounded memory.
/// Runs in a fresh process of this executable (`parse-bookmarks COUNT ROUNDS FILE`), so the
/// peak is the parse's and no earlier measurement's heap hides it: there the sample is made
/// and written to FILE, /proc/self/clear_refs is reset (5: the peak RSS back to the current),
/// `BookmarkFile.parse` runs once on the bytes in memory and VmHWM − VmRSS before is the peak
/// growth, VmRSS with the result still held the retained growth. Then `rounds` timed parses,
/// and `rounds` timed `BookmarkFile.read(path:)` of FILE (open, read, parse: what the
/// provider does on every change), alternating.
enum BookmarkParseBenchmark {
    /// Runs the child and reads its JSON.
    static func run(bookmarks: Int, rounds: Int, work: URL, progress: (String) -> Void) throws(BenchError) -> BookmarkParseResults {
        progress("providers: parsing \(bookmarks) bookmarks, \(rounds) rounds, in a fresh process")
        let file = work.appendingPathComponent("recently-used-\(bookmarks).xbel")
        let result: CommandResult
        do {
            result = try Command.runBlocking(Products.selfExecutable.path,
                                             ["parse-bookmarks", "\(bookmarks)", "\(rounds)", file.path],
                                             timeout: .seconds(600))
        } catch {
            throw .subject(name: "parse-bookmarks", reason: "\(error)")
        }
        guard result.status == 0, let parsed = try? JSONDecoder().decode(BookmarkParseResults.self, from: Data(result.stdout.utf8)) else {
            throw .subject(name: "parse-bookmarks", reason: "exited with status \(result.status): \(result.stderr.suffix(2000))")
        }
        progress(String(format: "providers: %d bookmarks (%.1f MB): parse %.1f ms median, read %.1f ms, peak +%.1f MiB",
                        parsed.bookmarks, Double(parsed.fileBytes) / 1e6, median(parsed.parseMilliseconds),
                        median(parsed.readMilliseconds), parsed.peakGrowthBytes / 1_048_576))
        return parsed
    }

    /// The child: `parse-bookmarks COUNT ROUNDS FILE`; prints the results as JSON.
    static func child(_ arguments: [String]) throws(BenchError) {
        guard arguments.count == 3, let count = Int(arguments[0]), count >= 0, let rounds = Int(arguments[1]), rounds >= 1 else {
            throw .usage("parse-bookmarks needs COUNT, ROUNDS and FILE")
        }
        let path = arguments[2]
        let bytes = BookmarkFileSample.xbel(count: count, folder: "/tmp/qa-bench")
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        } catch {
            throw .file(path: path, reason: "cannot write the sample: \(error)")
        }
        defer { unlink(path) }
        var results = BookmarkParseResults(bookmarks: count, fileBytes: bytes.count, rounds: rounds)
        // The peak, on the first parse of this process.
        let resetPeak = (try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)) != nil
        let before = statusBytes("VmRSS") ?? 0
        do {
            let parsed = try BookmarkFile.parse(bytes)
            results.peakGrowthBytes = (statusBytes("VmHWM") ?? 0) - before
            results.retainedGrowthBytes = (statusBytes("VmRSS") ?? 0) - before
            results.peakMeasured = resetPeak
            guard parsed.count == count else {
                throw BenchError.calls(subject: "BookmarkFile.parse", reason: "expected \(count) bookmarks, got \(parsed.count)")
            }
        } catch let error as BenchError {
            throw error
        } catch {
            throw .calls(subject: "BookmarkFile.parse", reason: "\(error)")
        }
        for _ in 0..<rounds {
            do {
                let start = monotonicNanoseconds()
                let parsed = try BookmarkFile.parse(bytes)
                let middle = monotonicNanoseconds()
                let read = try BookmarkFile.read(path: path)
                let end = monotonicNanoseconds()
                guard parsed.count == count, read?.count == count else {
                    throw BenchError.calls(subject: "BookmarkFile", reason: "a round read \(parsed.count) and \(read?.count ?? -1) bookmarks")
                }
                results.parseMilliseconds.append(Double(middle - start) / 1e6)
                results.readMilliseconds.append(Double(end - middle) / 1e6)
            } catch let error as BenchError {
                throw error
            } catch {
                throw .calls(subject: "BookmarkFile", reason: "\(error)")
            }
        }
        let encoder = JSONEncoder()
        guard let data = try? encoder.encode(results) else { throw .file(path: "stdout", reason: "cannot encode the results") }
        FileHandle.standardOutput.write(data)
    }

    /// A "Name:  1234 kB" line of /proc/self/status, in bytes.
    private static func statusBytes(_ name: String) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            if parts.count >= 2, let kib = Double(parts[1].trimmingCharacters(in: .whitespaces)) { return kib * 1024 }
        }
        return nil
    }

    static func targetRows(_ results: BookmarkParseResults?) -> [Report.Row] {
        guard let results else { return [] }
        let parse = median(results.parseMilliseconds)
        let size = "\(Report.number(Double(results.fileBytes) / 1_048_576, 1)) MiB"
        return [
            Report.Row(
                name: "\(Report.number(Double(results.bookmarks), 0))-bookmark file (\(size)): BookmarkFile.parse, "
                    + "median (range) of \(results.rounds)",
                result: ProviderStartupBenchmark.spread(results.parseMilliseconds),
                target: "≤ 100 ms", met: results.bookmarks >= 20_000 ? parse <= 100 : nil),
            Report.Row(
                name: "The same file: BookmarkFile.read (open, read, parse), median (range)",
                result: ProviderStartupBenchmark.spread(results.readMilliseconds), target: "—", met: nil),
            Report.Row(
                name: "The same parse: peak memory growth (VmHWM, first parse of a fresh process); kept with the result",
                result: results.peakMeasured
                    ? "+\(Report.mebibytes(results.peakGrowthBytes)) (\(Report.number(results.peakGrowthBytes / Double(max(results.fileBytes, 1)), 1)) × the file); "
                        + "+\(Report.mebibytes(results.retainedGrowthBytes)) kept"
                    : "not measured (/proc/self/clear_refs not writable)",
                target: "bounded (files over 16 MiB or 100,000 bookmarks refused)", met: nil),
        ]
    }
}

struct BookmarkParseResults: Codable, Sendable {
    var bookmarks: Int
    var fileBytes: Int
    var rounds: Int
    var parseMilliseconds: [Double] = []
    var readMilliseconds: [Double] = []
    var peakGrowthBytes = 0.0
    var retainedGrowthBytes = 0.0
    var peakMeasured = false
}
