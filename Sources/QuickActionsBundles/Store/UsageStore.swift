import Foundation

/// The usage history (``UsageHistory``) in one file of the state directory, `usage.json`, beside
/// the apps' `<app id>.items` files.
///
/// Format, version 1 (UTF-8 JSON):
///
///     {"format": "quickactions-usage", "version": 1,
///      "apps": {"<app id>": {"<item id>": [<seconds since 1970>, …], …}, …}}
///
/// A save writes `.usage.json.tmp-<pid>`, fsyncs it, renames it over `usage.json` and fsyncs the
/// folder, so a crash leaves the complete old or the complete new history. A file that is not
/// that format, or of another version, is moved aside to `usage.json.corrupt-<UTC time>` and the
/// history starts empty; `load` says so in its diagnostics. The history's own bounds keep the
/// file small (at most 256 apps × 128 items × 16 uses).
public struct UsageStore: Sendable {
    public static let fileName = "usage.json"
    public static let format = "quickactions-usage"
    public static let version = 1
    /// Far more than the history's bounds ever need.
    static let maximumFileSize = 8 << 20

    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    public var fileURL: URL { directory.appendingPathComponent(Self.fileName) }

    /// The stored history; never throws: a missing file is an empty history, a bad one is moved
    /// aside (reported), an unreadable one is reported and left in place. Temporary files of
    /// writers that are no longer running (a broker killed mid-save) are removed.
    public func load() -> (history: UsageHistory, diagnostics: [Diagnostic]) {
        removeStaleTemporaryFiles()
        let path = fileURL.path
        let contents: RegularFile.Contents
        do throws(RegularFile.Failure) {
            guard let read = try RegularFile.contents(of: path, limit: Self.maximumFileSize, followSymlinks: false) else {
                return (UsageHistory(), [])
            }
            contents = read
        } catch {
            if case .system = error {
                return (UsageHistory(), [Diagnostic(file: path, reason: "\(error.reason); usage ranking starts empty",
                                                    severity: .error)])
            }
            return (UsageHistory(), [moveAside(path, reason: error.reason)])
        }
        do throws(UsageFileError) {
            return (try Self.decode(contents.bytes), [])
        } catch {
            return (UsageHistory(), [moveAside(path, reason: error.description)])
        }
    }

    /// Writes `history` atomically (see the type's documentation).
    public func save(_ history: UsageHistory) throws(StoreError) {
        let bytes = Self.encode(history)
        let temporary = directory.appendingPathComponent(".\(Self.fileName).tmp-\(getpid())").path
        do throws(SystemCallError) {
            try StateFileSystem.makeDirectory(directory.path)
            try StateFileSystem.writeSynced(bytes, to: temporary)
            try StateFileSystem.renameFile(temporary, to: fileURL.path)
        } catch {
            _ = try? StateFileSystem.removeFile(temporary)
            throw .system(error)
        }
        do throws(SystemCallError) {
            try StateFileSystem.syncDirectory(directory.path)
        } catch {
            throw .system(error)
        }
    }

    /// `.usage.json.tmp-<pid>` of a process that has exited.
    private func removeStaleTemporaryFiles() {
        let prefix = ".\(Self.fileName).tmp-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count)), pid != getpid(), kill(pid, 0) == -1, errno == ESRCH
            else { continue }
            _ = try? StateFileSystem.removeFile(directory.appendingPathComponent(name).path)
        }
    }

    static func encode(_ history: UsageHistory) -> [UInt8] {
        let object: [String: Any] = [
            "format": format, "version": version,
            "apps": history.apps.mapValues { items in items.mapValues { uses in uses.map { NSNumber(value: $0) } } },
        ]
        // Only strings, numbers and dictionaries: serialisation cannot fail.
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return [UInt8](data)
    }

    static func decode(_ bytes: [UInt8]) throws(UsageFileError) -> UsageHistory {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(bytes))
        } catch {
            throw UsageFileError("not JSON")
        }
        guard let root = parsed as? [String: Any], root["format"] as? String == format else {
            throw UsageFileError("not a usage file (no \"format\": \"\(format)\")")
        }
        guard let version = root["version"] as? Int, version == Self.version else {
            throw UsageFileError("version \(String(describing: root["version"] ?? "none").prefix(20)) is not \(Self.version)")
        }
        guard let apps = root["apps"] as? [String: Any] else { throw UsageFileError("\"apps\" is not an object") }
        var decoded: [String: [String: [Int64]]] = [:]
        for (app, value) in apps {
            guard let items = value as? [String: Any] else {
                throw UsageFileError("the history of \"\(app.prefix(80))\" is not an object")
            }
            for (item, uses) in items {
                guard let times = uses as? [NSNumber], times.allSatisfy({ $0.doubleValue.isFinite && Swift.abs($0.doubleValue) < 1e15 }) else {
                    throw UsageFileError("the uses of \"\(item.prefix(80))\" of \"\(app.prefix(80))\" are not a list of numbers")
                }
                decoded[app, default: [:]][item] = times.map { $0.int64Value }
            }
        }
        // The initialiser applies the bounds to whatever the file held.
        return UsageHistory(apps: decoded)
    }

    private func moveAside(_ path: String, reason: String) -> Diagnostic {
        let target: String
        do {
            target = try StateFile.moveAside(path)
        } catch {
            return Diagnostic(file: path, reason: "\(reason); moving it aside failed (\(error)); usage ranking starts empty",
                              severity: .error)
        }
        return Diagnostic(file: path, reason: "\(reason); moved aside to \(target); usage ranking starts empty",
                          severity: .error)
    }
}

/// Why a usage file could not be read.
struct UsageFileError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
