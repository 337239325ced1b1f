import Foundation
import Glibc

/// Runs a command to completion with a time limit and captures its output:
/// how tests drive busctl, gdbus, dbus-send and python3.
public struct CommandResult: Sendable, CustomStringConvertible {
    public let status: Int32
    public let stdout: String
    public let stderr: String

    public var description: String {
        "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)"
    }
}

public enum Command {
    /// Runs `executable` (looked up in PATH) with `arguments`. A command still
    /// running after `timeout` is killed and reported with status -1.
    ///
    /// The waiting happens on a Dispatch thread, never on the Swift
    /// concurrency pool, so tests running side by side cannot starve the
    /// tasks of the services they test.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        input: String? = nil, timeout: Duration = .seconds(60)
    ) async throws -> CommandResult {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result {
                    try runBlocking(executable, arguments, environment: environment, input: input, timeout: timeout)
                })
            }
        }
    }

    /// `run`, blocking the calling thread.
    public static func runBlocking(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        input: String? = nil, timeout: Duration = .seconds(60)
    ) throws -> CommandResult {
        let directory = try TemporaryDirectory.make(prefix: "qa-cmd")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("stdout")
        let err = directory.appendingPathComponent("stderr")
        let child = try Spawn.start(
            [executable] + arguments, environment: environment ?? ProcessInfo.processInfo.environment,
            stdout: out.path, stderr: err.path, pipeStdin: true)
        if let writer = child.stdinWriter {
            if let input {
                let bytes = Array(input.utf8)
                var offset = 0
                while offset < bytes.count {
                    let written = bytes[offset...].withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
                    if written <= 0 { break }
                    offset += written
                }
            }
            close(writer)
        }
        let deadline = ContinuousClock.now + timeout
        var status = Spawn.poll(child.pid)
        while status == nil && ContinuousClock.now < deadline {
            usleep(2_000)
            status = Spawn.poll(child.pid)
        }
        if status == nil {
            kill(child.pid, SIGKILL)
            while Spawn.poll(child.pid) == nil { usleep(1_000) }
        }
        return CommandResult(
            status: status ?? -1,
            stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    /// Whether `executable` is on PATH.
    public static func exists(_ executable: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(executable)")
        }
    }
}
