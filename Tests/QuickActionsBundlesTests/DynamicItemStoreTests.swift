import Locking
import Foundation
import Testing
@testable import QuickActionsBundles
@testable import QuickActionsModel

@Suite struct DynamicItemStoreTests {
    static let music = AppID(unchecked: "com.example.music")
    static let maps = AppID(unchecked: "com.example.maps")

    static let oldList = [ShortcutItem(type: "old", title: "Old", userInfo: ["n": .int(1)])]
    static let newList = [
        ShortcutItem(type: "new1", title: "New 1", icon: .type(.add)),
        ShortcutItem(type: "new2", title: "New 2", userInfo: ["d": .double(-0.0)]),
    ]

    @Test(arguments: [
        (nil, ["XDG_STATE_HOME": "/state", "HOME": "/home/u"], "/state/quickactions"),
        (nil, ["XDG_STATE_HOME": "relative", "HOME": "/home/u"], "/home/u/.local/state/quickactions"),
        (nil, ["HOME": "/home/u/"], "/home/u/.local/state/quickactions"),
        ("/override", ["XDG_STATE_HOME": "/state"], "/override"),
        ("", ["XDG_STATE_HOME": "/state/"], "/state/quickactions"),
    ] as [(String?, [String: String], String)])
    func resolvesTheStateDirectory(_ override: String?, _ environment: [String: String], _ expected: String) throws {
        #expect(try StateDirectory.resolve(override: override, environment: environment).path == expected)
    }

    @Test func noHomeAndNoXDGStateHomeIsAnError() {
        #expect(throws: StoreError.noStateDirectory) { try StateDirectory.resolve(environment: [:]) }
    }

    @Test func roundTripsEveryUserInfoTypeThroughAFile() throws {
        let directory = try TemporaryDirectory()
        let stateURL = directory.url.appendingPathComponent("deep/state/quickactions")
        let items = DynamicItemCoderTests.items
        try DynamicItemStore(directory: stateURL).save(items, for: Self.music)
        let loaded = DynamicItemStore(directory: stateURL).load(Self.music)
        #expect(loaded.items == items)
        #expect(loaded.diagnostics.isEmpty)
    }

    @Test func createsTheDirectoryPrivateAndTheFilePrivate() throws {
        let directory = try TemporaryDirectory()
        let stateURL = directory.url.appendingPathComponent("a/b")
        let store = DynamicItemStore(directory: stateURL)
        try store.save(Self.oldList, for: Self.music)
        #expect(try mode(directory.path + "/a") == 0o700)
        #expect(try mode(stateURL.path) == 0o700)
        #expect(try mode(store.fileURL(for: Self.music).path) == 0o600)
        #expect(store.fileURL(for: Self.music).lastPathComponent == "com.example.music.items")
    }

    @Test func missingFileMeansNoItems() throws {
        let directory = try TemporaryDirectory()
        let loaded = DynamicItemStore(directory: directory.url.appendingPathComponent("none")).load(Self.music)
        #expect(loaded.items.isEmpty)
        #expect(loaded.diagnostics.isEmpty)
    }

    @Test func savingAnEmptyListRemovesTheFile() throws {
        let directory = try TemporaryDirectory()
        let store = DynamicItemStore(directory: directory.url)
        try store.save(Self.oldList, for: Self.music)
        try store.save([], for: Self.music)
        #expect(!FileManager.default.fileExists(atPath: store.fileURL(for: Self.music).path))
        #expect(store.load(Self.music).items.isEmpty)
        #expect(DynamicItemStore(directory: directory.url).load(Self.music).items.isEmpty)
    }

    @Test func aListOverTheLimitsLeavesTheOldListIntact() throws {
        let directory = try TemporaryDirectory()
        let store = DynamicItemStore(directory: directory.url)
        try store.save(Self.oldList, for: Self.music)
        let before = try Data(contentsOf: store.fileURL(for: Self.music))
        let tooLong = [ShortcutItem(type: "t", title: String(repeating: "x", count: 1025))]
        #expect(throws: StoreError.limits(appID: Self.music, .tooLarge(index: 0, field: .title, bytes: 1025))) {
            try store.save(tooLong, for: Self.music)
        }
        #expect(try Data(contentsOf: store.fileURL(for: Self.music)) == before)
        #expect(store.load(Self.music).items == Self.oldList)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["com.example.music.items"])
    }

    static let unusableFiles: [(String, [UInt8])] = [
        ("empty", []),
        ("corrupt", Array("this is not a state file".utf8)),
        ("future version", Array("QAIS".utf8) + [0, 99, 0, 0, 0, 0]),
        ("truncated", Array((try? DynamicItemCoder.encode(oldList))?.dropLast(3) ?? [])),
    ]

    @Test(arguments: unusableFiles)
    func unusableFileIsMovedAsideAndNothingElseIsLost(_ label: String, _ contents: [UInt8]) throws {
        let directory = try TemporaryDirectory()
        let writer = DynamicItemStore(directory: directory.url)
        try writer.save(Self.newList, for: Self.maps)
        let musicPath = writer.fileURL(for: Self.music).path
        try Data(contents).write(to: URL(fileURLWithPath: musicPath))

        let store = DynamicItemStore(directory: directory.url)
        let loaded = store.load(Self.music)
        #expect(loaded.items.isEmpty, "\(label)")
        let diagnostic = try #require(loaded.diagnostics.first)
        #expect(diagnostic.file == musicPath)
        #expect(diagnostic.reason.contains("moved aside to \(musicPath).corrupt-"), "\(diagnostic.reason)")

        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names.count == 2)
        #expect(names.contains("com.example.maps.items"))
        let aside = try #require(names.first { $0.hasPrefix("com.example.music.items.corrupt-") })
        #expect(try Data(contentsOf: directory.url.appendingPathComponent(aside)) == Data(contents), "the bad file is kept as it was")
        #expect(store.load(Self.maps).items == Self.newList)
        #expect(try store.storedAppIDs() == [Self.maps])
        #expect(store.load(Self.music).diagnostics.isEmpty, "reported once")

        // The app can store again afterwards.
        try store.save(Self.oldList, for: Self.music)
        #expect(DynamicItemStore(directory: directory.url).load(Self.music).items == Self.oldList)
    }

    @Test func folderInPlaceOfTheFileIsMovedAside() throws {
        let directory = try TemporaryDirectory()
        try directory.makeFolder("com.example.music.items")
        let loaded = DynamicItemStore(directory: directory.url).load(Self.music)
        #expect(loaded.items.isEmpty)
        #expect(loaded.diagnostics.first?.reason.contains("not a regular file; moved aside") == true, "\(loaded.diagnostics)")
        #expect(try DynamicItemStore(directory: directory.url).storedAppIDs() == [])
    }

    @Test func secondCorruptFileDoesNotOverwriteTheFirstMovedAside() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/com.example.music.items"
        for round in 0..<2 {
            try Data("bad \(round)".utf8).write(to: URL(fileURLWithPath: path))
            _ = DynamicItemStore(directory: directory.url).load(Self.music)
        }
        let aside = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".corrupt-") }
        #expect(aside.count == 2)
    }

    /// A crash between writing the temporary file and renaming it leaves that file behind:
    /// the old list must load intact and the debris must never be read as the list.
    @Test(arguments: [true, false])
    func crashBeforeRenameKeepsTheOldList(tornWrite: Bool) throws {
        let directory = try TemporaryDirectory()
        try DynamicItemStore(directory: directory.url).save(Self.oldList, for: Self.music)

        let crashing = DynamicItemStore(directory: directory.url)
        var newBytes = try DynamicItemCoder.encode(Self.newList)
        if tornWrite { newBytes = Array(newBytes.prefix(newBytes.count / 2)) }
        let debris = try crashing.writeTemporaryFile(newBytes, for: Self.music)
        #expect(FileManager.default.fileExists(atPath: debris))

        let restarted = DynamicItemStore(directory: directory.url)
        let loaded = restarted.load(Self.music)
        #expect(loaded.items == Self.oldList)
        #expect(loaded.diagnostics.isEmpty)
        #expect(try restarted.storedAppIDs() == [Self.music])

        // The next save replaces the debris and lands completely.
        try restarted.save(Self.newList, for: Self.music)
        #expect(!FileManager.default.fileExists(atPath: debris))
        #expect(DynamicItemStore(directory: directory.url).load(Self.music).items == Self.newList)
    }

    @Test func removeStoredAppIDsAndStaleTemporaryFiles() throws {
        let directory = try TemporaryDirectory()
        let store = DynamicItemStore(directory: directory.url)
        let gone = try AppID("org.example.gone")
        for app in [Self.music, Self.maps, gone] {
            try store.save(Self.oldList, for: app)
        }
        try directory.write("x", to: "not-an-id.items")
        try directory.write("x", to: "com.example.x.items.corrupt-20240101T000000Z")
        let staleTemporary = try directory.write("x", to: ".org.example.gone.items.tmp-999999999")
        #expect(try store.storedAppIDs() == [Self.maps, Self.music, gone])

        try store.removeStaleTemporaryFiles()
        #expect(try store.storedAppIDs() == [Self.maps, Self.music, gone], "cleaning up never removes a stored list")
        #expect(!FileManager.default.fileExists(atPath: staleTemporary.path), "a dead writer's temporary file is removed")
        try store.remove(gone)
        #expect(store.load(gone).items.isEmpty)

        try store.remove(Self.maps)
        try store.remove(Self.maps)  // removing twice is fine
        #expect(try store.storedAppIDs() == [Self.music])
        #expect(DynamicItemStore(directory: directory.url).load(Self.maps).items.isEmpty)
        #expect(try DynamicItemStore(directory: directory.url.appendingPathComponent("missing")).storedAppIDs() == [])
    }

    /// A FIFO where the store writes its temporary file would block a plain open for ever.
    @Test func aFIFOAtTheTemporaryPathNeitherBlocksNorStopsTheSave() throws {
        let directory = try TemporaryDirectory()
        let store = DynamicItemStore(directory: directory.url)
        let temporary = directory.url.appendingPathComponent(".\(Self.music.rawValue).items.tmp-\(getpid())")
        #expect(mkfifo(temporary.path, 0o600) == 0)
        try store.save(Self.newList, for: Self.music)
        #expect(DynamicItemStore(directory: directory.url).load(Self.music).items == Self.newList)
        #expect(!FileManager.default.fileExists(atPath: temporary.path))
    }

    @Test func concurrentSavesAndLoadsNeverSeeAMix() throws {
        let directory = try TemporaryDirectory()
        let store = DynamicItemStore(directory: directory.url)
        let apps = try (0..<4).map { try AppID("com.example.app\($0)") }
        let lists = (0..<8).map { version in
            (0...(version % 3)).map { ShortcutItem(type: "v\(version)-\($0)", title: "Version \(version)") }
        }
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            let app = apps[index % apps.count]
            do {
                try store.save(lists[index % lists.count], for: app)
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
            let loaded = store.load(app).items
            if !lists.contains(loaded) { failures.withLock { $0.append("mixed list \(loaded.map(\.type))") } }
        }
        #expect(failures.withLock { $0 } == [])
        let fresh = DynamicItemStore(directory: directory.url)
        for app in apps {
            #expect(fresh.load(app).items == store.load(app).items, "the file holds the last saved list of \(app)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.allSatisfy { !$0.hasPrefix(".") }, "no temporary file is left: \(names)")
    }

    @Test(.enabled(if: getuid() != 0, "root reads files whatever their mode"))
    func unreadableFileIsReportedButNotMoved() throws {
        let directory = try TemporaryDirectory()
        let store = DynamicItemStore(directory: directory.url)
        try store.save(Self.oldList, for: Self.music)
        let path = store.fileURL(for: Self.music).path
        #expect(chmod(path, 0) == 0)
        defer { chmod(path, 0o600) }
        let loaded = DynamicItemStore(directory: directory.url).load(Self.music)
        #expect(loaded.items.isEmpty)
        #expect(loaded.diagnostics.first?.reason.contains("Permission denied") == true)
        #expect(FileManager.default.fileExists(atPath: path))
    }

    private func mode(_ path: String) throws -> mode_t {
        var status = stat()
        guard stat(path, &status) == 0 else { throw CocoaError(.fileNoSuchFile) }
        return status.st_mode & 0o777
    }
}
