import Glibc
import QuickActionsProviding

/// What the installed-application index knew of every entry file when it last changed, kept in
/// `$XDG_CACHE_HOME/quickactions/applications.cache` so that a later start reads only the files
/// that changed since (as KDE's ksycoca does): parsing 1,000 entries is most of what they add to
/// the broker's start-up (issue 33 §6), and a file whose device, inode, size, modification and
/// change times are all as recorded has not been written since.
///
/// A cache, never a store: a file that is missing, of another version, another environment
/// (current desktops, `PATH`, folders), cut short, damaged (its checksum) or of the wrong kind
/// is passed over, and every entry is read as without one. Entries with a `TryExec` are never
/// kept: whether that program is installed changes without the entry changing.
enum ApplicationIndexCache {
    static let magic: [UInt8] = Array("QAIX".utf8)
    static let version: UInt32 = 1
    /// Larger files are not read: 1,000 entries take about 1 MB.
    static let maximumSize = 64 << 20

    /// Where the cache is: `$XDG_CACHE_HOME` (absolute), else `$HOME/.cache`; nil without either.
    static func path(environment: [String: String]) -> String? {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/quickactions/applications.cache" }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return home + "/.cache/quickactions/applications.cache"
    }

    /// What a cache is valid for: readings depend on the current desktops and `PATH`, file
    /// names on the folders.
    static func key(reader: ApplicationEntryReader, folders: [String]) -> String {
        [reader.currentDesktops.joined(separator: ":"), reader.searchPath ?? "", folders.joined(separator: ":")]
            .joined(separator: "\n")
    }

    struct Damage: Error, CustomStringConvertible {
        let description: String
    }

    // MARK: Writing

    static func encode(_ files: [[String: InstalledApplicationIndex.Known]], key: String) -> [UInt8] {
        var out = CacheWriter()
        out.bytes += magic
        out.u32(version)
        out.string(key)
        out.u32(UInt32(files.count))
        for folder in files {
            let kept = folder.filter(\.value.cacheable)
            out.u32(UInt32(kept.count))
            for (relative, known) in kept {
                out.string(relative)
                out.signature(known.signature)
                out.string(known.desktopID)
                out.u32(UInt32(known.depth))
                out.reading(known.reading)
            }
        }
        out.u64(checksum(out.bytes[...]))
        return out.bytes
    }

    /// Writes the cache whole (a temporary file renamed over it), its folders made 0700 as the
    /// Base Directory Specification asks; nil when written, else why not. Two writers at once
    /// are harmless: each rename is whole, and every record is checked against its file's
    /// signature when read.
    static func write(_ bytes: [UInt8], to path: String) -> String? {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        var parent = ""
        for component in folder.split(separator: "/") {
            parent += "/" + component
            if mkdir(parent, 0o700) != 0 && errno != EEXIST { return "cannot make \(parent): \(String(cString: strerror(errno)))" }
        }
        do {
            try AtomicFile.replace(path, with: bytes)
            return nil
        } catch {
            return "\(error)"
        }
    }

    // MARK: Reading

    /// The files recorded for `key`, nil when there is no cache file; a `Damage` naming why a
    /// file that is there cannot be used.
    static func read(_ path: String, key: String, folders: Int) -> Result<[[String: InstalledApplicationIndex.Known]], Damage>? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            return errno == ENOENT ? nil : .failure(Damage(description: "cannot be opened: \(String(cString: strerror(errno)))"))
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            return .failure(Damage(description: "is not a regular file"))
        }
        guard Int(status.st_size) <= maximumSize else {
            return .failure(Damage(description: "has \(status.st_size) bytes, more than the \(maximumSize) a cache may have"))
        }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                buffer.baseAddress.map { Glibc.read(fd, $0 + filled, buffer.count - filled) } ?? 0
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return .failure(Damage(description: "was cut short while it was read")) }
            filled += count
        }
        do throws(Damage) {
            return .success(try decode(bytes, key: key, folders: folders))
        } catch {
            return .failure(error)
        }
    }

    static func decode(_ bytes: [UInt8], key: String, folders: Int) throws(Damage) -> [[String: InstalledApplicationIndex.Known]] {
        guard bytes.count >= magic.count + 12, Array(bytes[0..<magic.count]) == magic else {
            throw Damage(description: "is not an index cache")
        }
        let body = bytes[..<(bytes.count - 8)]
        var tail = CacheReader(bytes[(bytes.count - 8)...])
        guard try tail.u64() == checksum(body) else { throw Damage(description: "is damaged (its checksum does not match)") }
        var input = CacheReader(body.dropFirst(magic.count))
        let found = try input.u32()
        guard found == version else { throw Damage(description: "is of version \(found), not \(version)") }
        guard try input.string() == key else {
            throw Damage(description: "was made for other current desktops, another PATH or other folders")
        }
        guard try input.u32() == folders else { throw Damage(description: "was made for other folders") }
        var files: [[String: InstalledApplicationIndex.Known]] = []
        for _ in 0..<folders {
            let count = try input.count(least: 8)
            var folder: [String: InstalledApplicationIndex.Known] = [:]
            folder.reserveCapacity(count)
            for _ in 0..<count {
                let relative = try input.string()
                let signature = try input.signature()
                let desktopID = try input.string()
                let depth = Int(try input.u32())
                folder[relative] = InstalledApplicationIndex.Known(
                    signature: signature, desktopID: desktopID, depth: depth, reading: try input.reading(), cacheable: true)
            }
            files.append(folder)
        }
        guard input.isAtEnd else { throw Damage(description: "has bytes past its end") }
        return files
    }

    /// FNV-1a, 64 bits: enough to tell a damaged file, at a few instructions a byte.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash
    }
}

/// Little-endian integers and length-prefixed UTF-8 strings.
struct CacheWriter {
    var bytes: [UInt8] = []

    mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    mutating func string(_ text: String) {
        u32(UInt32(text.utf8.count))
        bytes += text.utf8
    }

    mutating func optional(_ text: String?) {
        bytes.append(text == nil ? 0 : 1)
        if let text { string(text) }
    }

    mutating func strings(_ texts: [String]) {
        u32(UInt32(texts.count))
        for text in texts { string(text) }
    }

    mutating func localized(_ text: LocalizedText) {
        string(text.value)
        u32(UInt32(text.translations.count))
        for (locale, value) in text.translations.sorted(by: { $0.key < $1.key }) {
            string(locale)
            string(value)
        }
    }

    mutating func signature(_ signature: InstalledApplicationIndex.FileSignature) {
        u64(signature.device)
        u64(signature.inode)
        u64(UInt64(bitPattern: signature.size))
        u64(UInt64(bitPattern: signature.modified))
        u64(UInt64(bitPattern: signature.changed))
    }

    mutating func reading(_ reading: ApplicationEntryReader.Reading) {
        switch reading {
        case .generated:
            bytes.append(0)
        case .shown(let app):
            bytes.append(1)
            string(app.desktopID)
            string(app.appID)
            string(app.path)
            localized(app.name)
            optional(app.icon)
            optional(app.exec)
            optional(app.workingDirectory)
            bytes.append((app.terminal ? 1 : 0) | (app.dbusActivatable ? 2 : 0))
            strings(app.mimeTypes)
            u32(UInt32(app.actions.count))
            for action in app.actions {
                string(action.id)
                localized(action.name)
                optional(action.icon)
                optional(action.exec)
            }
        case .notShown(let reason):
            bytes.append(2)
            string(reason)
        case .refused(let reason):
            bytes.append(3)
            string(reason)
        }
    }
}

/// Reads what ``CacheWriter`` writes, every length checked against what is left.
struct CacheReader {
    private let bytes: ArraySlice<UInt8>
    private var position: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    var isAtEnd: Bool { position == bytes.endIndex }

    private mutating func take(_ count: Int) throws(ApplicationIndexCache.Damage) -> ArraySlice<UInt8> {
        guard count >= 0, bytes.endIndex - position >= count else {
            throw ApplicationIndexCache.Damage(description: "is cut short")
        }
        defer { position += count }
        return bytes[position..<position + count]
    }

    mutating func byte() throws(ApplicationIndexCache.Damage) -> UInt8 { try take(1).first ?? 0 }

    mutating func u32() throws(ApplicationIndexCache.Damage) -> UInt32 {
        try take(4).reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func u64() throws(ApplicationIndexCache.Damage) -> UInt64 {
        try take(8).reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// A count of things of at least `least` bytes each, no more than what is left could hold.
    mutating func count(least: Int) throws(ApplicationIndexCache.Damage) -> Int {
        let count = Int(try u32())
        guard count <= (bytes.endIndex - position) / least else {
            throw ApplicationIndexCache.Damage(description: "counts \(count) records where fewer fit")
        }
        return count
    }

    mutating func string() throws(ApplicationIndexCache.Damage) -> String {
        let length = Int(try u32())
        // The checksum vouches for the bytes; decoding cannot fail, only repair.
        return String(decoding: try take(length), as: UTF8.self)
    }

    mutating func optional() throws(ApplicationIndexCache.Damage) -> String? {
        try byte() == 0 ? nil : try string()
    }

    mutating func strings() throws(ApplicationIndexCache.Damage) -> [String] {
        let count = try count(least: 4)
        var result: [String] = []
        result.reserveCapacity(count)
        for _ in 0..<count { result.append(try string()) }
        return result
    }

    mutating func localized() throws(ApplicationIndexCache.Damage) -> LocalizedText {
        let value = try string()
        let count = try count(least: 8)
        var translations: [String: String] = [:]
        translations.reserveCapacity(count)
        for _ in 0..<count {
            let locale = try string()
            translations[locale] = try string()
        }
        return LocalizedText(value, translations: translations)
    }

    mutating func signature() throws(ApplicationIndexCache.Damage) -> InstalledApplicationIndex.FileSignature {
        InstalledApplicationIndex.FileSignature(
            device: try u64(), inode: try u64(), size: Int64(bitPattern: try u64()),
            modified: Int64(bitPattern: try u64()), changed: Int64(bitPattern: try u64()))
    }

    mutating func reading() throws(ApplicationIndexCache.Damage) -> ApplicationEntryReader.Reading {
        switch try byte() {
        case 0:
            return .generated
        case 1:
            let desktopID = try string(), appID = try string(), path = try string()
            let name = try localized()
            let icon = try optional(), exec = try optional(), workingDirectory = try optional()
            let flags = try byte()
            let mimeTypes = try strings()
            let actionCount = try count(least: 14)
            var actions: [DesktopAction] = []
            actions.reserveCapacity(actionCount)
            for _ in 0..<actionCount {
                let id = try string()
                actions.append(DesktopAction(id: id, name: try localized(), icon: try optional(), exec: try optional()))
            }
            return .shown(InstalledApplication(
                desktopID: desktopID, appID: appID, path: path, name: name, icon: icon, exec: exec,
                workingDirectory: workingDirectory, terminal: flags & 1 != 0, dbusActivatable: flags & 2 != 0,
                mimeTypes: mimeTypes, actions: actions))
        case 2:
            return .notShown(try string())
        case 3:
            return .refused(try string())
        case let kind:
            throw ApplicationIndexCache.Damage(description: "holds a record of unknown kind \(kind)")
        }
    }
}
