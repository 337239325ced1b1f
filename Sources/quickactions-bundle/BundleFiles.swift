import Foundation
import Glibc

/// The file operations of assembling a bundle, with the modes the broker's loader accepts:
/// folders 0755, files 0644, the library 0755 (never group- or world-writable, whatever the
/// umask).
enum BundleFiles {
    /// Creates `folder` (and its parents) and sets its mode to 0755.
    static func makeFolder(_ folder: URL) throws(AssemblerError) {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .fileSystem(operation: "create the folder", path: folder.path, reason: error.localizedDescription)
        }
        try setMode(0o755, of: folder)
    }

    /// Copies the tree `source` into the existing folder `destination`: folders and regular
    /// files, skipping hidden names. Anything else (a symbolic link, a socket) is refused.
    static func copyTree(_ source: URL, into destination: URL) throws(AssemblerError) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: source.path)
        } catch {
            throw .fileSystem(operation: "list", path: source.path, reason: error.localizedDescription)
        }
        for name in names.sorted() where !name.hasPrefix(".") {
            let from = source.appendingPathComponent(name)
            let to = destination.appendingPathComponent(name)
            switch try kind(of: from) {
            case .folder:
                try makeFolder(to)
                try copyTree(from, into: to)
            case .file:
                try copyFile(from, to: to, mode: 0o644)
            case .other:
                throw .unsupportedFile(path: from.path)
            }
        }
    }

    /// Copies the regular file `source` to `destination` (which must not exist) with `mode`.
    static func copyFile(_ source: URL, to destination: URL, mode: mode_t) throws(AssemblerError) {
        let data: Data
        do {
            data = try Data(contentsOf: source)
        } catch {
            throw .fileSystem(operation: "read", path: source.path, reason: error.localizedDescription)
        }
        do {
            try data.write(to: destination, options: .withoutOverwriting)
        } catch {
            throw .fileSystem(operation: "write", path: destination.path, reason: error.localizedDescription)
        }
        try setMode(mode, of: destination)
    }

    /// Puts the folder `staged` in place as `final`, replacing a folder already there: the old
    /// one is first renamed aside, so `final` is at every moment either the old bundle or the
    /// new one, never a mix.
    static func replace(_ final: URL, with staged: URL, aside: URL) throws(AssemblerError) {
        let hadOld = FileManager.default.fileExists(atPath: final.path)
        if hadOld {
            try? FileManager.default.removeItem(at: aside)
            try rename(final, to: aside)
        }
        do {
            try rename(staged, to: final)
        } catch {
            if hadOld { try? rename(aside, to: final) }
            throw error
        }
        if hadOld { try? FileManager.default.removeItem(at: aside) }
    }

    /// Removes `url` if it exists.
    static func remove(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
    }

    enum Kind { case folder, file, other }

    /// What `url` is, without following a symbolic link.
    static func kind(of url: URL) throws(AssemblerError) -> Kind {
        var status = stat()
        guard lstat(url.path, &status) == 0 else {
            throw .fileSystem(operation: "stat", path: url.path, reason: String(cString: strerror(errno)))
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: return .folder
        case S_IFREG: return .file
        default: return .other
        }
    }

    private static func rename(_ from: URL, to: URL) throws(AssemblerError) {
        guard Glibc.rename(from.path, to.path) == 0 else {
            throw .fileSystem(
                operation: "rename \(from.path) to", path: to.path, reason: String(cString: strerror(errno)))
        }
    }

    private static func setMode(_ mode: mode_t, of url: URL) throws(AssemblerError) {
        guard chmod(url.path, mode) == 0 else {
            throw .fileSystem(operation: "set the mode of", path: url.path, reason: String(cString: strerror(errno)))
        }
    }
}
