import FolderWatching
import Foundation
import Glibc
import Locking
import Testing

@Suite struct FolderWatcherTests {
    /// A fresh folder, removed when the test ends.
    final class Scratch: Sendable {
        let path: String
        init() throws {
            var template = Array("/tmp/qa-watch-XXXXXX".utf8CString)
            let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
            path = try #require(made.map { String(cString: $0) })
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Waits (up to 10 s) until `condition` holds.
    static func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<1000 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    @Test func aBurstOfChangesIsOneCall() async throws {
        let scratch = try Scratch()
        let calls = Locked(0)
        let watcher = try FolderWatcher(
            label: "test", delay: .seconds(1), watch: { $0.add(scratch.path, .contents) },
            changed: { calls.withLock { $0 += 1 } })
        defer { watcher.stop() }
        for index in 0..<20 {
            #expect(FileManager.default.createFile(atPath: "\(scratch.path)/file\(index)", contents: Data()))
        }
        #expect(await Self.eventually { calls.withLock { $0 } >= 1 })
        // Twenty files made well within the second the burst is collected: one call.
        try await Task.sleep(for: .milliseconds(1200))
        #expect(calls.withLock { $0 } == 1)
        // A later change is a call of its own.
        try FileManager.default.removeItem(atPath: "\(scratch.path)/file0")
        #expect(await Self.eventually { calls.withLock { $0 } == 2 })
    }

    @Test func aMissingFolderIsSeenWhenItIsMadeAndThenWatchedItself() async throws {
        let scratch = try Scratch()
        let target = scratch.path + "/later/plugins"
        let calls = Locked(0)
        let watcher = try FolderWatcher(
            label: "test", delay: .milliseconds(20),
            watch: { watches in
                if !watches.add(target, [.contents, .onlyFolders]) { watches.addNearestAncestor(of: target) }
            },
            changed: { calls.withLock { $0 += 1 } })
        defer { watcher.stop() }
        try FileManager.default.createDirectory(atPath: scratch.path + "/later", withIntermediateDirectories: false)
        #expect(await Self.eventually { calls.withLock { $0 } >= 1 }, "the ancestor's arrival was seen")
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        #expect(await Self.eventually { calls.withLock { $0 } >= 2 }, "the folder's own arrival was seen")
        let before = calls.withLock { $0 }
        // Now the folder itself is watched: a file made in it is a change.
        try await Task.sleep(for: .milliseconds(100))
        #expect(FileManager.default.createFile(atPath: target + "/bundle", contents: Data()))
        #expect(await Self.eventually { calls.withLock { $0 } > before })
    }

    @Test func aStoppedWatcherCallsNoMore() async throws {
        let scratch = try Scratch()
        let calls = Locked(0)
        let rewatches = Locked(0)
        let handle = Locked<FolderWatcher?>(nil)
        // The watcher is stopped from its own queue while it handles the first burst, after
        // reading the events and before the burst's call is due: deterministic, however busy
        // the machine.
        let watcher = try FolderWatcher(
            label: "test", delay: .milliseconds(200),
            watch: { watches in
                watches.add(scratch.path, .contents)
                let count = rewatches.withLock { count in
                    count += 1
                    return count
                }
                if count == 2 { handle.withLock { $0 }?.stop() }
            },
            changed: { calls.withLock { $0 += 1 } })
        handle.withLock { $0 = watcher }
        #expect(FileManager.default.createFile(atPath: scratch.path + "/one", contents: Data()))
        #expect(await Self.eventually { rewatches.withLock { $0 } >= 2 }, "the burst was read")
        try await Task.sleep(for: .milliseconds(500))
        #expect(calls.withLock { $0 } == 0, "the burst pending at stop was dropped")
        watcher.stop()
    }

    @Test(arguments: [
        ("/a/b/c", "/a/b"), ("/a/b/", "/a"), ("/a", "/"), ("/", nil), ("relative", nil),
    ] as [(String, String?)])
    func parentFolders(_ path: String, _ parent: String?) {
        #expect(FolderWatcher.Watches.parentFolder(of: path) == parent)
    }
}

@Suite struct FolderWatcherChangesTests {
    @Test func aBurstSaysWhichEntriesOfWhichFoldersChanged() async throws {
        let scratch = try FolderWatcherTests.Scratch()
        try FileManager.default.createDirectory(atPath: scratch.path + "/sub", withIntermediateDirectories: false)
        let bursts = Locked<[FolderWatcher.Changes]>([])
        let watcher = try FolderWatcher(
            label: "test", delay: .milliseconds(200),
            watch: { watches in
                watches.add(scratch.path, .contents)
                watches.add(scratch.path + "/sub", .contents)
            },
            changes: { changes in bursts.withLock { $0.append(changes) } })
        defer { watcher.stop() }
        #expect(FileManager.default.createFile(atPath: scratch.path + "/a", contents: Data()))
        #expect(FileManager.default.createFile(atPath: scratch.path + "/sub/b", contents: Data()))
        #expect(await FolderWatcherTests.eventually {
            bursts.withLock { $0.reduce(into: Set<String>()) { $0.formUnion($1.paths) } }.isSuperset(of: [scratch.path + "/a", scratch.path + "/sub/b"])
        })
        // Foundation writes through a temporary dot file, renamed into place: those are named too.
        let named = bursts.withLock { $0.reduce(into: Set<String>()) { $0.formUnion($1.paths) } }
            .filter { !($0.split(separator: "/").last?.hasPrefix(".") ?? false) }
        #expect(named == [scratch.path + "/a", scratch.path + "/sub/b"])
        #expect(bursts.withLock { $0.allSatisfy { !$0.overflowed } })
    }
}
