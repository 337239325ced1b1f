import Glibc

/// What marks a file as the bridge's own, and unedited since it wrote it.
///
/// Every file the bridge writes carries, in `[Desktop Entry]`:
/// - `X-QuickActions-Generated=<format version>`;
/// - `X-QuickActions-App=<app id>`: whose items it shows;
/// - `X-QuickActions-Hash=<16 hex digits>`: FNV-1a (64 bits) of the whole file without this
///   line. Any edit (by hand or a menu editor) changes the file, the hash no longer matches,
///   and the bridge leaves the file alone from then on: the user's edits win.
///
/// A file without the mark is not ours and is never written over or removed.
public enum GeneratedMark {
    public static let generatedKey = "X-QuickActions-Generated"
    public static let appKey = "X-QuickActions-App"
    public static let hashKey = "X-QuickActions-Hash"
    /// The format version of what we write.
    public static let version = "1"

    /// What a file in the user's folder is, as far as the bridge is concerned.
    public enum Status: Equatable, Sendable {
        /// No file.
        case absent
        /// A file the bridge did not write (no mark, or not readable as a desktop entry).
        case foreign
        /// The bridge wrote it and it was changed since: the user's.
        case edited(app: String)
        /// The bridge wrote it, for `app`, and it is as written.
        case ours(app: String)
    }

    /// Adds the mark to `file`'s `[Desktop Entry]` (replacing any mark it had) and returns the
    /// text to write.
    public static func marked(_ file: DesktopEntryFile, app: String) throws(ValueEscaping.UnrepresentableValue) -> String {
        var file = file
        let app = try ValueEscaping.escape(app)
        file.modifyGroup(DesktopEntryFile.mainGroup) { group in
            group.removeEntries { [generatedKey, appKey, hashKey].contains($0.key) }
            group.append(.init(key: generatedKey, rawValue: version))
            group.append(.init(key: appKey, rawValue: app))
        }
        let unhashed = file.text
        file.modifyGroup(DesktopEntryFile.mainGroup) { group in
            group.append(.init(key: hashKey, rawValue: hash(unhashed)))
        }
        return file.text
    }

    /// The status of what is at `path` in the user's folder: nothing; something that is not a
    /// regular file we can read (a symbolic link, a folder: the user's, never replaced); or
    /// a file, judged by its content.
    public static func status(ofFileAt path: String) -> Status {
        inspect(path).status
    }

    /// The status of what is at `path` and the bytes it was judged by (nil: no file, or not a
    /// regular file), for writing or removing it only if it still holds them
    /// (``AtomicFile/write(_:to:temporaryFolder:ifStill:)``).
    public static func inspect(_ path: String) -> (status: Status, bytes: [UInt8]?) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return (errno == ENOENT ? .absent : .foreign, nil) }
        guard (info.st_mode & S_IFMT) == S_IFREG, let bytes = AtomicFile.read(path) else { return (.foreign, nil) }
        return (status(of: bytes), bytes)
    }

    /// The status of the file whose bytes are `bytes` (nil: no file).
    public static func status(of bytes: [UInt8]?) -> Status {
        guard let bytes else { return .absent }
        guard let file = try? DesktopEntryParser.parse(bytes), let main = file.main,
              main.value(generatedKey) != nil, let app = main.value(appKey)
        else { return .foreign }
        guard let hashEntry = main.entries.last(where: { $0.key == hashKey && $0.locale == nil }) else {
            return .edited(app: app)
        }
        var unhashed = file
        unhashed.modifyGroup(DesktopEntryFile.mainGroup) { group in
            group.removeEntries { $0.key == hashKey && $0.locale == nil }
        }
        // The text as read minus the hash line: the parser keeps every line as it was.
        return hashEntry.value == hash(unhashed.text) && isCanonical(bytes, file) ? .ours(app: app) : .edited(app: app)
    }

    /// Whether `bytes` is exactly what `file` renders: the parser normalises nothing but a
    /// missing final newline, which an edit may have removed.
    private static func isCanonical(_ bytes: [UInt8], _ file: DesktopEntryFile) -> Bool {
        Array(file.text.utf8) == bytes
    }

    /// FNV-1a, 64 bits, as 16 lowercase hex digits. Not a defence against a forger (the user
    /// owns the file anyway), just a reliable sign of any change.
    static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
