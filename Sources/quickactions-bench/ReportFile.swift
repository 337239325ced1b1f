import Foundation

/// BENCHMARKS.md: a hand-written head, then one section per run, newest first.
/// A new run goes in right after the marker line; everything else is kept.
enum ReportFile {
    static let marker = "<!-- Runs, newest first. `quickactions-bench --write BENCHMARKS.md` adds one below. -->"

    static let defaultHead = """
        # Benchmarks

        How the broker compares with the fastest Perform responder possible on the
        same machine, in the same run (issue 8). Produced by `make bench`.

        """

    static func add(_ section: String, to path: String) throws(BenchError) {
        let existing = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        let updated: String
        if let range = existing.range(of: marker) {
            let head = existing[..<range.upperBound]
            let runs = existing[range.upperBound...].drop { $0 == "\n" }
            updated = head + "\n\n" + section + (runs.isEmpty ? "" : "\n" + runs)
        } else {
            let head = existing.isEmpty ? defaultHead : existing.hasSuffix("\n") ? existing : existing + "\n"
            updated = head + "\n" + marker + "\n\n" + section
        }
        do {
            try updated.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw .file(path: path, reason: "cannot write the results: \(error)")
        }
    }
}
