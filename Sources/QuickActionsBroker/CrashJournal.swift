import Foundation
import Glibc
import QuickActionsBundles
import QuickActionsModel

/// Which plugins are running plugin code right now, kept in a file mapped
/// with MAP_SHARED.
///
/// Setting a flag is a plain store into shared memory: no system call on the
/// Perform path. When a plugin takes the process down (SIGSEGV in its
/// perform), the page stays in the kernel's page cache with the flag set, and
/// the next broker reads it to know whom to blame. The file is never fsync'd:
/// it only has to survive the process, not the machine.
final class CrashJournal: @unchecked Sendable {
    // @unchecked Sendable: `assigned` and `next` are guarded by `lock`; each
    // slot's flag byte is written only on its plugin's serial queue.

    /// One app's record: its id (NUL-padded) and a flag byte.
    static let slotSize = 264
    static let idBytes = 256
    static let slotCount = 4096
    static let fileName = "running-plugins"

    /// The mapping; nil only when not even memory could be mapped (then nothing is recorded).
    private let base: UnsafeMutableRawPointer?
    private let lock = NSLock()
    private var assigned: [String: Int] = [:]
    private var next = 0

    /// What `open` found and did, for the broker to log.
    struct Opened {
        var journal: CrashJournal
        /// The apps whose code was running when the previous broker died.
        var interrupted: [String]
        /// Problems with the file (each naming it and why); the journal works regardless, in
        /// memory only when the file could not be used.
        var problems: [String]
    }

    /// Reads what the previous broker left (the apps whose code was running
    /// when it died), then starts a clean journal in `directory`. Never
    /// fails: a file of the wrong kind (folder, FIFO, symlink) or a journal
    /// of the wrong size is moved aside; when no file can be made (a
    /// read-only state directory), the journal lives in memory and crashes
    /// are not counted across restarts. Nothing is opened in a way that can
    /// block.
    static func open(in directory: URL) -> Opened {
        let path = directory.appendingPathComponent(fileName).path
        let size = slotSize * slotCount
        var problems: [String] = []
        var interrupted: [String] = []
        switch StateFile.read(path, limit: size) {
        case .missing:
            break
        case .contents(let bytes) where bytes.count == size:
            interrupted = read(bytes)
        case .contents(let bytes):
            problems.append("\(path): \(bytes.count) bytes is not a crash journal (\(size) bytes); starting a new one")
        case .unusable(let reason, let movable):
            if movable {
                do {
                    let aside = try StateFile.moveAside(path)
                    problems.append("\(path): \(reason); moved aside to \(aside)")
                } catch {
                    problems.append("\(path): \(reason); moving it aside failed (\(error))")
                }
            } else {
                problems.append("\(path): \(reason); crashes of the previous broker are not known")
            }
        }
        do {
            let mapped = try mapFile(path, size: size)
            return Opened(journal: CrashJournal(base: mapped), interrupted: interrupted, problems: problems)
        } catch {
            problems.append("\(error); crashes are not counted across restarts")
            let anonymous = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            if let anonymous, anonymous != MAP_FAILED {
                return Opened(journal: CrashJournal(base: anonymous), interrupted: interrupted, problems: problems)
            }
            problems.append("mmap of an in-memory crash journal: \(String(cString: strerror(errno))); crashes are not counted")
            return Opened(journal: CrashJournal(base: nil), interrupted: interrupted, problems: problems)
        }
    }

    /// Creates (truncating) and maps the journal file, refusing anything but a regular file.
    private static func mapFile(_ path: String, size: Int) throws(JournalError) -> UnsafeMutableRawPointer {
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard fd >= 0 else { throw JournalError(path: path, call: "open", code: errno) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw JournalError(path: path, call: "fstat", code: errno) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw JournalError(path: path, call: "open", code: EINVAL) }
        guard ftruncate(fd, 0) == 0, ftruncate(fd, off_t(size)) == 0 else {
            throw JournalError(path: path, call: "ftruncate", code: errno)
        }
        guard let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), mapped != MAP_FAILED else {
            throw JournalError(path: path, call: "mmap", code: errno)
        }
        return mapped
    }

    private init(base: UnsafeMutableRawPointer?) {
        self.base = base
    }

    /// Marks `appID` as running plugin code (true) or not (false).
    func set(_ appID: String, running: Bool) {
        guard let base, let slot = slot(for: appID) else { return }
        base.storeBytes(of: running ? 1 : 0, toByteOffset: slot * Self.slotSize + Self.idBytes, as: UInt8.self)
    }

    /// `appID`'s flag, to set without looking the app up on every call.
    func flag(for appID: String) -> Flag? {
        guard let base else { return nil }
        return slot(for: appID).map { Flag(byte: base.advanced(by: $0 * Self.slotSize + Self.idBytes)) }
    }

    /// One app's flag byte in the journal.
    struct Flag: @unchecked Sendable {
        // @unchecked Sendable: the byte is written only on its plugin's
        // serial queue, and the mapping lives as long as the process.
        let byte: UnsafeMutableRawPointer

        /// Marks the app as running plugin code (true) or not (false).
        func set(_ running: Bool) {
            byte.storeBytes(of: running ? 1 : 0, as: UInt8.self)
        }
    }

    private func slot(for appID: String) -> Int? {
        guard let base else { return nil }
        lock.lock()
        defer { lock.unlock() }
        if let slot = assigned[appID] { return slot }
        guard next < Self.slotCount else { return nil }
        let slot = next
        next += 1
        assigned[appID] = slot
        let bytes = Array(appID.utf8.prefix(Self.idBytes - 1))
        let start = base.advanced(by: slot * Self.slotSize)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { start.copyMemory(from: base, byteCount: source.count) }
        }
        return slot
    }

    private static func read(_ data: [UInt8]) -> [String] {
        var apps: [String] = []
        data.withUnsafeBytes { raw in
            for slot in 0..<slotCount {
                let start = slot * slotSize
                guard raw[start + idBytes] == 1 else { continue }
                let id = raw[start..<(start + idBytes)].prefix { $0 != 0 }
                if let text = String(validating: id, as: UTF8.self), !text.isEmpty { apps.append(text) }
            }
        }
        return apps
    }
}

struct JournalError: Error, CustomStringConvertible {
    let path: String
    let call: String
    let code: Int32
    var description: String {
        code == EINVAL && call == "open" ? "\(path): not a regular file" : "\(call) \(path): \(String(cString: strerror(code)))"
    }
}
