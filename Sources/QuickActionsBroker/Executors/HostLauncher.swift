import CQuickActionsHostSupport
import DBus
import Dispatch
import Foundation
import Glibc
import Locking
import QuickActionsAPI

/// Everything host processes share: the peer server they connect to, in a folder only this
/// user can enter; the thread that starts them; and which process is whose, so a connection
/// is admitted only from a host this broker started and not yet connected.
///
/// Why a server on a socket in a 0700 folder, not a socket pair: libdbus's public API can
/// neither wrap an inherited descriptor as a connection nor serve one, and a `DBusServer` on
/// a path only this user can reach, checked again by the peer's authenticated user and
/// process id, lets nothing else in. Every host connection is served by the bus connection's
/// own loop thread, so a Perform forwarded to a host and its answer cost no thread switch.
final class HostLauncher: Sendable {
    let server: PeerServer
    /// The 0700 folder holding the socket; removed at `close()`.
    let folder: String
    /// The folders of brokers that died without removing theirs, removed when this one was made.
    let removedFolders: [String]
    let executable: String
    private let spawner = HostSpawner()
    private let hosts = Locked<[pid_t: HostProcessExecutor]>([:])
    private let environment: [String: String]

    /// The variables a host does not inherit: the broker's own service plumbing.
    static let withheld: Set<String> = [
        "DBUS_STARTER_ADDRESS", "DBUS_STARTER_BUS_TYPE", "NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID",
        "LISTEN_FDNAMES", "WATCHDOG_USEC", "WATCHDOG_PID", "JOURNAL_STREAM", "QUICKACTIONS_PLUGIN_PATH",
        "QUICKACTIONS_HOST",
    ]

    init(sharing connection: Connection, environment: [String: String]) throws {
        executable = try Self.locateExecutable(environment: environment)
        (folder, removedFolders) = try Self.makeFolder(environment: environment)
        var inherited = environment.filter { !Self.withheld.contains($0.key) && !$0.key.hasPrefix("QUICKACTIONS_HOST_") }
        // A crashed Swift host must end at once, not sit in the backtracer.
        inherited["SWIFT_BACKTRACE"] = "enable=no"
        let hosts = self.hosts
        do {
            server = try PeerServer(
                listeningAt: "unix:path=\(folder)/socket", sharing: connection,
                allow: { pid, uid in
                    uid == getuid() && hosts.withLock { $0[pid] }?.awaitsConnection(from: pid) == true
                },
                accepted: { connection, pid in
                    hosts.withLock { $0[pid] }?.attach(connection, processID: pid)
                })
        } catch {
            rmdir(folder)
            throw error
        }
        inherited[HostAPI.Environment.address] = server.address
        self.environment = inherited
    }

    /// Stops listening and removes the folder.
    func close() {
        server.close()
        unlink("\(folder)/socket")
        rmdir(folder)
    }

    /// Starts a host for `executor`'s app and registers it before it can connect; the
    /// process's end is reported to `executor.exited`. Blocks until the process started.
    ///
    /// `registered` runs with the new pid under the lock that admission reads, before the
    /// host can be admitted: the executor records there that it awaits this pid, so a host
    /// that connects at once (its broker's thread descheduled on a busy machine) is never
    /// refused as unknown.
    func start(
        _ executor: HostProcessExecutor, appID: String, bundle: URL, library: URL, dataDirectory: URL,
        registered: @escaping @Sendable (pid_t) -> Void, log: @escaping @Sendable (String) -> Void
    ) throws(HostSpawnError) -> pid_t {
        var variables = environment
        variables[HostAPI.Environment.appID] = appID
        variables[HostAPI.Environment.bundle] = bundle.path
        variables[HostAPI.Environment.library] = library.path
        variables[HostAPI.Environment.dataDirectory] = dataDirectory.path
        let variablesSet = variables
        let started = Locked<Result<(pid_t, Int32), HostSpawnError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let executable = self.executable
        let hosts = self.hosts
        spawner.onSpawnerThread {
            var pipeFDs: [Int32] = [0, 0]
            guard qa_pipe_cloexec(&pipeFDs) == 0 else {
                started.withLock { $0 = .failure(HostSpawnError(executable: executable, code: errno)) }
                done.signal()
                return
            }
            // Registered under the lock that admission reads, so the host's connection can
            // never arrive before its registration.
            let result = hosts.withLock { hosts -> Result<(pid_t, Int32), HostSpawnError> in
                do throws(HostSpawnError) {
                    let pid = try HostSpawner.spawn(
                        executable: executable, arguments: [], environment: variablesSet, stderr: pipeFDs[1])
                    hosts[pid] = executor
                    registered(pid)
                    return .success((pid, pipeFDs[0]))
                } catch {
                    return .failure(error)
                }
            }
            Glibc.close(pipeFDs[1])
            if case .failure = result { Glibc.close(pipeFDs[0]) }
            started.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        guard let result = started.withLock({ $0 }) else { throw HostSpawnError(executable: executable, code: EIO) }
        let (pid, stderr) = try result.get()
        Self.forwardLines(from: stderr, prefix: appID, to: log)
        let thread = Thread { [hosts] in
            let exit = HostExit.wait(for: pid)
            hosts.withLock { _ = $0.removeValue(forKey: pid) }
            executor.exited(pid: pid, exit)
        }
        thread.name = "org.quickactions.broker.host-wait"
        thread.start()
        return pid
    }

    /// Logs every line the host writes to its standard error, with the app id in front.
    private static func forwardLines(from fd: Int32, prefix: String, to log: @escaping @Sendable (String) -> Void) {
        let thread = Thread {
            let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    log("\(prefix): \(line)")
                }
                // A host that writes without newlines is cut at 4 KiB a line.
                if pending.count > 4096 {
                    log("\(prefix): \(String(decoding: pending, as: UTF8.self))")
                    pending.removeAll()
                }
            }
            if !pending.isEmpty { log("\(prefix): \(String(decoding: pending, as: UTF8.self))") }
        }
        thread.name = "org.quickactions.broker.host-stderr"
        thread.start()
    }

    /// `quickactions-host` beside the broker, or in `../libexec/quickactions` from it as
    /// installed; `$QUICKACTIONS_HOST` overrides both.
    static func locateExecutable(environment: [String: String]) throws -> String {
        if let chosen = environment["QUICKACTIONS_HOST"], !chosen.isEmpty { return chosen }
        let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let folder = URL(fileURLWithPath: own).deletingLastPathComponent()
        let candidates = [
            folder.appendingPathComponent("quickactions-host"),
            folder.deletingLastPathComponent().appendingPathComponent("libexec/quickactions/quickactions-host"),
        ]
        for candidate in candidates where access(candidate.path, X_OK) == 0 {
            return candidate.standardizedFileURL.path
        }
        throw HostSpawnError(executable: candidates[0].path, code: ENOENT)
    }

    /// A fresh folder only this user can enter, under `$XDG_RUNTIME_DIR` when that is this
    /// user's private folder, else under /tmp (mkdtemp makes it 0700). Short, because a Unix
    /// socket's path is at most 107 bytes. Its name carries the broker's pid, so that the
    /// folders of brokers that died without removing theirs (kill -9, the OOM killer) are
    /// removed here first.
    static func makeFolder(environment: [String: String]) throws -> (folder: String, removed: [String]) {
        var removedFolders: [String] = []
        var base = "/tmp"
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.utf8.count < 60 {
            var info = stat()
            if lstat(runtime, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == getuid(),
               info.st_mode & 0o077 == 0 {
                base = runtime
            }
        }
        removedFolders = removeAbandonedFolders(in: base)
        var template = Array("\(base)/\(folderPrefix)\(getpid())-XXXXXX".utf8CString)
        let made: String? = template.withUnsafeMutableBufferPointer { buffer in
            guard let start = buffer.baseAddress, let result = mkdtemp(start) else { return nil }
            return String(cString: result)
        }
        guard let made else { throw HostSpawnError(executable: "mkdtemp \(base)", code: errno) }
        return (made, removedFolders)
    }

    static let folderPrefix = "quickactions-hosts-"

    /// Removes this user's socket folders in `base` whose broker is gone: a folder named
    /// `quickactions-hosts-PID-XXXXXX` that is a real directory owned by us, 0700, whose PID
    /// no longer runs. Only sockets inside it are unlinked, then the folder itself; anything
    /// else found there makes rmdir fail and the folder stays. A PID reused by another
    /// process keeps its folder until a later start: never removing a live one matters more.
    /// - Returns: the folders removed.
    static func removeAbandonedFolders(in base: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: base) else { return [] }
        var removed: [String] = []
        for name in names where name.hasPrefix(folderPrefix) {
            let rest = name.dropFirst(folderPrefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]), pid > 0, pid != getpid(),
                  kill(pid, 0) == -1, errno == ESRCH else { continue }
            let folder = "\(base)/\(name)"
            var info = stat()
            guard lstat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == getuid(),
                  info.st_mode & 0o077 == 0 else { continue }
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                let path = "\(folder)/\(entry)"
                var entryInfo = stat()
                if lstat(path, &entryInfo) == 0, (entryInfo.st_mode & S_IFMT) == S_IFSOCK { unlink(path) }
            }
            if rmdir(folder) == 0 { removed.append(folder) }
        }
        return removed
    }
}
