import Foundation
import QuickActionsTestSupport

/// A run's results as one JSON file per run (benchmarks/results/DATE-COMMIT.json), and the
/// document rendered from the latest of them by scripts/render-benchmarks.py: the document
/// holds no figure the results files do not.
enum ResultsFile {
    /// benchmarks/results in the folder of `document`.
    static func defaultDirectory(beside document: String) -> String {
        URL(fileURLWithPath: document).deletingLastPathComponent()
            .appendingPathComponent("benchmarks/results", isDirectory: true).path
    }

    /// "2026-12-07T013038Z-abc1234.json": sorts by date, names the commit.
    static func name(_ machine: Machine) -> String {
        let stamp = machine.date.filter { $0 != ":" }
        return "\(stamp)-\(machine.commit ?? "nocommit").json"
    }

    /// Writes `results` into `directory` (made if missing); returns the file's path.
    static func write(_ results: BenchResults, into directory: String) throws(BenchError) -> String {
        let path = URL(fileURLWithPath: directory, isDirectory: true).appendingPathComponent(name(results.machine)).path
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try (encoder.encode(results) + Data("\n".utf8)).write(to: URL(fileURLWithPath: path))
        } catch {
            throw .file(path: path, reason: "cannot write the results: \(error)")
        }
        return path
    }

    /// The renderer, in the package's scripts folder.
    static var renderer: URL { PackagePaths.root.appendingPathComponent("scripts/render-benchmarks.py") }

    /// Renders `document`'s status table and plots from the results file `results`.
    static func render(document: String, results: String) throws(BenchError) {
        let outcome: CommandResult
        do {
            outcome = try Command.runBlocking(
                Products.python.path, [renderer.path, document, "--results", results], timeout: .seconds(120))
        } catch {
            throw .file(path: renderer.path, reason: "cannot run the renderer: \(error)")
        }
        if !outcome.stderr.isEmpty { FileHandle.standardError.write(Data(outcome.stderr.utf8)) }
        guard outcome.status == 0 else {
            throw .file(path: document, reason: "the renderer exited \(outcome.status): "
                + outcome.stderr.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }
}
