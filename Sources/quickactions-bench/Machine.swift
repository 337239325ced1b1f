import Foundation
import Glibc
import QuickActionsTestSupport

/// The machine and moment a run happened on, for the report.
struct Machine: Codable, Sendable {
    var cores: Int
    var cpuModel: String
    /// ISO 8601, UTC.
    var date: String
    /// /proc/loadavg's 1-minute figure when the run started: how busy the machine was.
    var loadAverage: String
    /// The package's git commit, when it is a git checkout.
    var commit: String?
    /// The kernel's release (uname -r) and the memory the machine has (MemTotal), in bytes.
    var kernel: String?
    var memoryBytes: Double?

    static func current() -> Machine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
            .split(separator: " ").first.map(String.init) ?? "?"
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        let git = try? Command.runBlocking(
            "git", ["-C", PackagePaths.root.path, "rev-parse", "--short", "HEAD"], timeout: .seconds(10))
        let commit = git.flatMap { $0.status == 0 ? $0.stdout.trimmingCharacters(in: .whitespacesAndNewlines) : nil }
        let kernel = (try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let meminfo = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
        let memory = meminfo.split(separator: "\n").first { $0.hasPrefix("MemTotal:") }
            .flatMap { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first }
            .flatMap { Double($0) }.map { $0 * 1024 }
        return Machine(
            cores: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), cpuModel: model,
            date: formatter.string(from: Date()), loadAverage: load, commit: commit, kernel: kernel,
            memoryBytes: memory)
    }
}
