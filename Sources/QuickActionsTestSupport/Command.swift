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
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        input: String? = nil, timeout: Duration = .seconds(60)
    ) throws -> CommandResult {
        let directory = try TemporaryDirectory.make(prefix: "qa-cmd")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("stdout")
        let err = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        if let environment { process.environment = environment }
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try? stdin.fileHandleForWriting.close()
        let deadline = ContinuousClock.now + timeout
        while process.isRunning && ContinuousClock.now < deadline {
            usleep(2_000)
        }
        var status: Int32 = -1
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        } else {
            status = process.terminationStatus
        }
        return CommandResult(
            status: status,
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
