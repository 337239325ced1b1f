import Foundation
import QuickActionsBundles
import QuickActionsModel
import QuickActionsTestSupport
import Testing

/// Issue 7 item 7: an unusable state file never stops the broker. It starts,
/// moves the file aside with a log line naming it and why, serves the app's
/// static items, and stores that app's items again from then on.
@Suite(.serialized) struct StateFileTests {
    struct Damage: Sendable, CustomStringConvertible {
        var description: String
        /// What the log line must say about it.
        var reason: String
        /// Puts the damaged file at `file` (the app's `.items` path).
        var make: @Sendable (_ file: URL, _ valid: [UInt8]) throws -> Void
        /// Moved aside (corrupt), or left in place as unreadable (a symlink:
        /// the store opens with O_NOFOLLOW and never follows one).
        var movedAside = true
    }

    static let damages: [Damage] = [
        Damage(description: "empty", reason: "the file is empty") { file, _ in try Data().write(to: file) },
        Damage(description: "not a state file", reason: "magic bytes") { file, _ in
            try Data("{\"items\": []}".utf8).write(to: file)
        },
        Damage(description: "a future format version", reason: "format version 3 is not one this build reads") { file, valid in
            var bytes = valid
            bytes[4] = 0
            bytes[5] = 3
            try Data(bytes).write(to: file)
        },
        Damage(description: "cut short", reason: "checksum mismatch") { file, valid in
            try Data(valid.prefix(valid.count / 2)).write(to: file)
        },
        Damage(description: "one byte flipped", reason: "checksum mismatch") { file, valid in
            var bytes = valid
            bytes[bytes.count / 2] ^= 0x20
            try Data(bytes).write(to: file)
        },
        Damage(description: "larger than 16 MiB", reason: "\(16 << 20 + 1) bytes is too large") { file, _ in
            try Data(count: 16 << 20 + 1).write(to: file)
        },
        Damage(description: "a symlink", reason: "symbolic links", make: { file, valid in
            let target = file.deletingLastPathComponent().appendingPathComponent("elsewhere")
            try Data(valid).write(to: target)
            try FileManager.default.createSymbolicLink(at: file, withDestinationURL: target)
        }, movedAside: false),
    ]

    @Test(arguments: damages)
    func anUnusableStateFileIsMovedAsideAndTheStaticItemsServed(_ damage: Damage) async throws {
        let harness = try await BrokerHarness(bundles: [Apps.swift])
        defer { harness.stop() }
        harness.process.stop()
        let file = harness.stateDirectory.appendingPathComponent("org.example.swift.items")
        let valid = try DynamicItemCoder.encode([ShortcutItem(type: "stored", title: "Stored")])
        try FileManager.default.createDirectory(at: harness.stateDirectory, withIntermediateDirectories: true)
        try damage.make(file, valid)
        let damaged = try? Data(contentsOf: file)
        try await harness.restart()

        let client = try BrokerClient(harness)
        let items = try await client.items("org.example.swift")
        #expect(items.map { $0["type"]?.string } == ["hello", "echo-items"])
        #expect(items.allSatisfy { $0["origin"]?.string == "static" })
        let line = harness.log.split(separator: "\n").first { $0.contains(file.path) }
        #expect(line?.contains(damage.reason) == true, "no log line names \(file.path) and why: \(harness.log)")
        #expect(line?.contains("starts with no dynamic items") == true, "\(String(describing: line))")
        let aside = try FileManager.default.contentsOfDirectory(atPath: harness.stateDirectory.path)
            .filter { $0.hasPrefix("org.example.swift.items.corrupt-") }
        if damage.movedAside {
            #expect(line?.contains("moved aside to \(file.path).corrupt-") == true, "\(String(describing: line))")
            #expect(aside.count == 1, "\(aside)")
            #expect(!FileManager.default.fileExists(atPath: file.path))
            if let name = aside.first {
                let kept = try Data(contentsOf: harness.stateDirectory.appendingPathComponent(name))
                #expect(kept == damaged, "the moved-aside file keeps what was there")
            }
        } else {
            #expect(aside.isEmpty, "\(aside)")
        }

        // The app stores again, and what it stores survives a crash.
        #expect(try await client.perform("org.example.swift", "echo-items").success)
        try await harness.restart(killing: true)
        let after = try await BrokerClient(harness).items("org.example.swift")
        #expect(after.map { $0["origin"]?.string } == ["static", "static", "dynamic", "dynamic"])
        let stored = try FileManager.default.attributesOfItem(atPath: file.path)[.type] as? FileAttributeType
        #expect(stored == .typeRegular, "a save replaces whatever was there with a regular file")
    }
}
