import Foundation
import Glibc
import QuickActionsDesktopEntries
import QuickActionsTestSupport
import Testing

@Suite struct GeneratedMarkTests {
    static let file = EntryComposer(command: "quickactions").generated(
        app: "com.example.a", name: "A", icon: nil, items: [ActionItem(itemID: "x", type: "x", title: "X")]).file

    @Test func whatWeWroteIsOursAndAnyEditMakesItTheUsers() throws {
        let text = try GeneratedMark.marked(Self.file, app: "com.example.a")
        #expect(GeneratedMark.status(of: Array(text.utf8)) == .ours(app: "com.example.a"))
        let edits = [
            text.replacingOccurrences(of: "Name=X", with: "Name=Mine"),
            text + "# my note\n",
            String(text.dropLast()),
            text.replacingOccurrences(of: "Terminal=false\n", with: ""),
            text.replacingOccurrences(of: "Terminal=false", with: "Terminal = false"),
        ]
        for edited in edits {
            #expect(GeneratedMark.status(of: Array(edited.utf8)) == .edited(app: "com.example.a"), "\(edited)")
        }
    }

    @Test(arguments: [
        "[Desktop Entry]\nType=Application\nName=Theirs\nExec=theirs\n",
        "not a desktop entry at all",
        "[Desktop Entry]\nX-QuickActions-Generated=1\nName=no app key\n",
    ])
    func aFileWithoutOurWholeMarkIsForeign(text: String) {
        #expect(GeneratedMark.status(of: Array(text.utf8)) == .foreign)
    }

    @Test func noFileIsAbsent() {
        #expect(GeneratedMark.status(of: nil) == .absent)
    }

    @Test func aSymbolicLinkOrAFolderInTheUsersFolderIsTheUsers() throws {
        let folder = try TemporaryDirectory.make(prefix: "qa-mark")
        defer { try? FileManager.default.removeItem(at: folder) }
        let ours = folder.appendingPathComponent("ours.desktop").path
        try GeneratedMark.marked(Self.file, app: "com.example.a").write(toFile: ours, atomically: true, encoding: .utf8)
        #expect(GeneratedMark.status(ofFileAt: ours) == .ours(app: "com.example.a"))
        let link = folder.appendingPathComponent("link.desktop").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: ours)
        #expect(GeneratedMark.status(ofFileAt: link) == .foreign, "even a link to our own file")
        let sub = folder.appendingPathComponent("sub.desktop").path
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
        #expect(GeneratedMark.status(ofFileAt: sub) == .foreign)
        #expect(GeneratedMark.status(ofFileAt: folder.appendingPathComponent("none.desktop").path) == .absent)
    }

    @Test func markingTwiceGivesTheSameText() throws {
        let once = try GeneratedMark.marked(Self.file, app: "com.example.a")
        let twice = try GeneratedMark.marked(try DesktopEntryParser.parse(once), app: "com.example.a")
        #expect(once == twice)
    }
}

@Suite struct AtomicFileTests {
    @Test func writesOnlyWhenTheContentChangesAndLeavesNoTemporaryFile() throws {
        let folder = try TemporaryDirectory.make(prefix: "qa-atomic")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a.desktop").path
        #expect(try AtomicFile.write("one\n", to: path))
        var first = stat()
        stat(path, &first)
        #expect(try AtomicFile.write("one\n", to: path) == false)
        var same = stat()
        stat(path, &same)
        #expect(same.st_ino == first.st_ino, "an unchanged write replaced the file")
        #expect(try AtomicFile.write("two\n", to: path))
        var second = stat()
        stat(path, &second)
        #expect(second.st_ino != first.st_ino, "a change must be a rename of a new file, not a rewrite in place")
        #expect(second.st_mode & 0o777 == 0o644)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "two\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["a.desktop"])
        #expect(try AtomicFile.remove(path))
        #expect(try AtomicFile.remove(path) == false)
    }

    /// The inode at `path`, 0 when there is none.
    static func inode(_ path: String) -> UInt {
        var info = stat()
        return lstat(path, &info) == 0 ? UInt(info.st_ino) : 0
    }

    @Test func aConditionalWriteReplacesOnlyWhatWasRead() throws {
        let folder = try TemporaryDirectory.make(prefix: "qa-atomic")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a.desktop").path
        let scratch = folder.appendingPathComponent(".scratch").path
        // Nothing there, as read: created.
        #expect(try AtomicFile.write("ours 1\n", to: path, temporaryFolder: scratch, ifStill: nil) == .done)
        let read = Array("ours 1\n".utf8)
        #expect(try AtomicFile.write("ours 1\n", to: path, temporaryFolder: scratch, ifStill: read) == .unchanged)
        // Still what was read: replaced.
        #expect(try AtomicFile.write("ours 2\n", to: path, temporaryFolder: scratch, ifStill: read) == .done)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "ours 2\n")

        // The user saves an edit after the bridge read "ours 2" (an editor's rename, then one
        // writing in place): the bridge's write is refused and the edit, the same file, stays.
        let stale = Array("ours 2\n".utf8)
        try "edited by rename\n".write(toFile: path, atomically: true, encoding: .utf8)
        let edited = Self.inode(path)
        #expect(try AtomicFile.write("ours 3\n", to: path, temporaryFolder: scratch, ifStill: stale) == .changedMeanwhile)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "edited by rename\n")
        #expect(Self.inode(path) == edited)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data("edited in place\n".utf8))
        try handle.close()
        #expect(try AtomicFile.write("ours 3\n", to: path, temporaryFolder: scratch,
                                     ifStill: Array("edited by rename\n".utf8)) == .changedMeanwhile)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "edited in place\n")

        // A file made where none was read is not replaced; one removed since is not made again.
        let other = folder.appendingPathComponent("b.desktop").path
        try "the user's own\n".write(toFile: other, atomically: true, encoding: .utf8)
        #expect(try AtomicFile.write("ours\n", to: other, temporaryFolder: scratch, ifStill: nil) == .changedMeanwhile)
        #expect(try String(contentsOfFile: other, encoding: .utf8) == "the user's own\n")
        let gone = folder.appendingPathComponent("c.desktop").path
        #expect(try AtomicFile.write("ours\n", to: gone, temporaryFolder: scratch, ifStill: read) == .changedMeanwhile)
        #expect(!FileManager.default.fileExists(atPath: gone))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch) == [], "no temporary file is left")
    }

    @Test func aConditionalRemovalRemovesOnlyWhatWasRead() throws {
        let folder = try TemporaryDirectory.make(prefix: "qa-atomic")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a.desktop").path
        let scratch = folder.appendingPathComponent(".scratch").path
        try "ours\n".write(toFile: path, atomically: true, encoding: .utf8)
        let read = Array("ours\n".utf8)
        #expect(try AtomicFile.remove(path, temporaryFolder: scratch, ifStill: read) == .done)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try AtomicFile.remove(path, temporaryFolder: scratch, ifStill: read) == .unchanged)

        // Edited after it was read: it goes back, the same file, under its name.
        try "edited\n".write(toFile: path, atomically: true, encoding: .utf8)
        let edited = Self.inode(path)
        #expect(try AtomicFile.remove(path, temporaryFolder: scratch, ifStill: read) == .changedMeanwhile)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "edited\n")
        #expect(Self.inode(path) == edited)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch) == [], "no temporary file is left")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [".scratch", "a.desktop"])
    }

    @Test func aFolderThatCannotBeWrittenIsAnErrorNamingIt() throws {
        #expect(throws: AtomicFile.WriteError.self) { try AtomicFile.write("x", to: "/proc/qa-nope/a.desktop") }
    }
}

@Suite struct DataDirectoriesTests {
    @Test func resolvesTheSpecDefaults() {
        let dirs = DataDirectories.resolve(["HOME": "/home/u"])
        #expect(dirs.home == "/home/u/.local/share")
        #expect(dirs.system == ["/usr/local/share", "/usr/share"])
        let set = DataDirectories.resolve(["HOME": "/home/u", "XDG_DATA_HOME": "/d/", "XDG_DATA_DIRS": "/a:relative:/b/:/d"])
        #expect(set.home == "/d")
        #expect(set.system == ["/a", "/b"])
        #expect(set.userApplications == "/d/applications")
    }

    @Test func findsTheFirstOriginalFlatOrInASubfolder() throws {
        let root = try TemporaryDirectory.make(prefix: "qa-dirs")
        defer { try? FileManager.default.removeItem(at: root) }
        let first = root.appendingPathComponent("first/applications")
        let second = root.appendingPathComponent("second/applications/vendor")
        try FileManager.default.createDirectory(at: first, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: second, withIntermediateDirectories: true)
        try "x".write(to: second.appendingPathComponent("app.desktop"), atomically: true, encoding: .utf8)
        try "x".write(to: root.appendingPathComponent("second/applications/flat.desktop"), atomically: true, encoding: .utf8)
        try "x".write(to: first.appendingPathComponent("flat.desktop"), atomically: true, encoding: .utf8)
        let dirs = DataDirectories(home: root.appendingPathComponent("home").path,
                                   system: [root.appendingPathComponent("first").path, root.appendingPathComponent("second").path])
        #expect(dirs.original(of: try #require(DesktopFileID("flat"))) == first.appendingPathComponent("flat.desktop").path)
        #expect(dirs.original(of: try #require(DesktopFileID("vendor-app.desktop"))) == second.appendingPathComponent("app.desktop").path)
        #expect(dirs.original(of: try #require(DesktopFileID("none.desktop"))) == nil)
    }

    @Test(arguments: [("org.gnome.Contacts", "org.gnome.Contacts.desktop"), ("firefox-esr.desktop", "firefox-esr.desktop")])
    func acceptsDesktopFileIDs(name: String, id: String) {
        #expect(DesktopFileID(name)?.rawValue == id)
    }

    @Test(arguments: ["", ".desktop", "../x.desktop", "a/b.desktop", ".hidden", "sp ace", "ünï.desktop", String(repeating: "a", count: 300)])
    func refusesWhatIsNoDesktopFileID(name: String) {
        #expect(DesktopFileID(name) == nil)
    }
}
