import Foundation
import Glibc
import QuickActionsProviders
import QuickActionsTestSupport

/// Issue 33 §6's parse bar: a Desktop Bookmark file of 20,000 bookmarks
/// (`BookmarkFileSample.xbel`, as GLib writes one) parses in ≤ 100 ms with bounded memory.
/// This process writes the sample to a file; a fresh process of this executable
/// (`parse-bookmarks ROUNDS FILE`) measures it, so the peak is the read's own and no heap
/// freed before it (the sample's making) hides it. There /proc/self/clear_refs is reset (5:
/// the peak RSS back to the current) and `BookmarkFile.read(path:)` runs once: VmHWM − VmRSS
/// before is its peak growth (the file's bytes, the scanner's work and the result), VmRSS
/// with the result still held what it keeps. Then `rounds` timed `BookmarkFile.parse` of the
/// bytes in memory and `rounds` timed `read(path:)` (open, read, parse: what the provider
/// does on every change), alternating.
enum BookmarkParseBenchmark {
    /// Runs the child and reads its JSON.
    static func run(bookmarks: Int, rounds: Int, work: URL, progress: (String) -> Void) throws(BenchError) -> BookmarkParseResults {
        progress("providers: parsing \(bookmarks) bookmarks, \(rounds) rounds, in a fresh process")
        let file = work.appendingPathComponent("recently-used-\(bookmarks).xbel")
        do {
            try Data(BookmarkFileSample.xbel(count: bookmarks, folder: "/tmp/qa-bench")).write(to: file)
        } catch {
            throw .file(path: file.path, reason: "cannot write the sample: \(error)")
        }
        defer { try? FileManager.default.removeItem(at: file) }
        let result: CommandResult
        do {
            result = try Command.runBlocking(Products.selfExecutable.path,
                                             ["parse-bookmarks", "\(rounds)", file.path],
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

    /// The child: `parse-bookmarks ROUNDS FILE`; prints the results as JSON.
    static func child(_ arguments: [String]) throws(BenchError) {
        guard arguments.count == 2, let rounds = Int(arguments[0]), rounds >= 1 else {
            throw .usage("parse-bookmarks needs ROUNDS and FILE")
        }
        let path = arguments[1]
        // The peak, on the first read of this process.
        let resetPeak = (try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)) != nil
        let before = statusBytes("VmRSS") ?? 0
        let count: Int
        var results: BookmarkParseResults
        do {
            let first = try BookmarkFile.read(path: path) ?? []
            let peak = (statusBytes("VmHWM") ?? 0) - before
            let kept = (statusBytes("VmRSS") ?? 0) - before
            count = first.count
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            results = BookmarkParseResults(bookmarks: count, fileBytes: size, rounds: rounds)
            results.peakGrowthBytes = peak
            results.retainedGrowthBytes = kept
            results.peakMeasured = resetPeak
        } catch {
            throw .calls(subject: "BookmarkFile.read", reason: "\(error)")
        }
        guard let bytes = FileManager.default.contents(atPath: path).map(Array.init) else {
            throw .file(path: path, reason: "cannot be read")
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
                name: "The same file: peak memory growth of BookmarkFile.read (VmHWM, first read of a fresh process, the file's bytes included); kept with the result",
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
