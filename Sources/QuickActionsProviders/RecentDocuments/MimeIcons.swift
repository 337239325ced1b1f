import Foundation
import Locking

/// The themed icon of a MIME type, as GLib's `g_content_type_get_icon` chooses it: the icon
/// shared-mime-info's `icons` file names for the type, then the type with `/` turned into `-`
/// (`text/plain` → `text-plain`), then its generic icon (shared-mime-info's `generic-icons`,
/// else `<media>-x-generic`, as `g_content_type_get_generic_icon_name`). An item carries one
/// name, so the first that an installed icon theme provides is taken; when no theme provides
/// any of them, the type's own name.
public final class MimeIcons: Sendable {
    private let mimeFolders: [String]
    private let available: @Sendable (String) -> Bool
    private let tables = Locked<(icons: [String: String], generic: [String: String])?>(nil)

    /// - Parameters:
    ///   - dataDirectories: `$XDG_DATA_HOME` then `$XDG_DATA_DIRS`, whose `mime/icons` and
    ///     `mime/generic-icons` are read (the first naming a type wins) and whose `icons/`
    ///     themes are looked in.
    ///   - available: whether an icon theme has a name; by default, any theme in
    ///     `dataDirectories` with it in a `mimetypes` folder.
    public init(dataDirectories: [String], available: (@Sendable (String) -> Bool)? = nil) {
        mimeFolders = dataDirectories.map { $0 + "/mime" }
        if let available {
            self.available = available
        } else {
            let themes = ThemedMimeIcons(dataDirectories: dataDirectories)
            self.available = { themes.contains($0) }
        }
    }

    /// The names GLib would try for `mimeType`, in its order.
    public func candidates(for mimeType: String) -> [String] {
        let type = mimeType.lowercased()
        let (icons, generic) = loadedTables()
        var names: [String] = []
        if let named = icons[type] { names.append(named) }
        names.append(type.replacingOccurrences(of: "/", with: "-"))
        let media = type.split(separator: "/", maxSplits: 1).first.map(String.init) ?? type
        names.append(generic[type] ?? "\(media)-x-generic")
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }

    /// The one icon name for `mimeType` (nil or unreadable: `application-octet-stream`'s).
    public func icon(for mimeType: String?) -> String {
        let type = Self.isMimeType(mimeType) ? mimeType ?? "" : "application/octet-stream"
        let names = candidates(for: type)
        return names.first(where: available) ?? names[0]
    }

    /// `media/subtype`, short, in the characters MIME types use.
    static func isMimeType(_ text: String?) -> Bool {
        guard let text, text.utf8.count <= 255 else { return false }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { part in
            !part.isEmpty && part.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || "+-.!#$&^_".utf8.contains(byte)
            }
        }
    }

    private func loadedTables() -> (icons: [String: String], generic: [String: String]) {
        if let loaded = tables.withLock({ $0 }) { return loaded }
        var icons: [String: String] = [:]
        var generic: [String: String] = [:]
        for folder in mimeFolders {
            Self.readTable(folder + "/icons", into: &icons)
            Self.readTable(folder + "/generic-icons", into: &generic)
        }
        tables.withLock { $0 = (icons, generic) }
        return (icons, generic)
    }

    /// Reads `type:icon` lines (at most 4 MiB of them); earlier folders win.
    private static func readTable(_ path: String, into table: inout [String: String]) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 4 * 1024 * 1024) else { return }
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let type = line[..<colon].lowercased()
            let icon = String(line[line.index(after: colon)...])
            if table[type] == nil, !icon.isEmpty { table[type] = icon }
        }
    }
}

/// The icon names found in installed themes' `mimetypes` folders
/// (`icons/<theme>/<size>/mimetypes/` and `icons/<theme>/mimetypes/<size>/`), listed once, on
/// first use.
final class ThemedMimeIcons: Sendable {
    private let roots: [String]
    private let names = Locked<Set<String>?>(nil)

    init(dataDirectories: [String]) {
        roots = dataDirectories.map { $0 + "/icons" }
    }

    func contains(_ name: String) -> Bool {
        if let names = names.withLock({ $0 }) { return names.contains(name) }
        let found = list()
        names.withLock { $0 = found }
        return found.contains(name)
    }

    private func list() -> Set<String> {
        let files = FileManager.default
        var found = Set<String>()
        for root in roots {
            for theme in (try? files.contentsOfDirectory(atPath: root)) ?? [] {
                let themeFolder = root + "/" + theme
                for level in (try? files.contentsOfDirectory(atPath: themeFolder)) ?? [] {
                    let folder = themeFolder + "/" + level
                    let mimetypes = level == "mimetypes" ? [folder] : [folder + "/mimetypes"]
                    var folders = mimetypes
                    if level == "mimetypes" {
                        folders = ((try? files.contentsOfDirectory(atPath: folder)) ?? []).map { folder + "/" + $0 }
                    }
                    for candidate in folders {
                        for file in (try? files.contentsOfDirectory(atPath: candidate)) ?? [] {
                            guard let dot = file.lastIndex(of: ".") else { continue }
                            found.insert(String(file[..<dot]))
                        }
                        if found.count > 100_000 { return found }
                    }
                }
            }
        }
        return found
    }
}
