import Foundation
import Glibc

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

    private let base: UnsafeMutableRawPointer
    private let lock = NSLock()
    private var assigned: [String: Int] = [:]
    private var next = 0

    /// Reads what the previous broker left (the apps whose code was running
    /// when it died), then starts a clean journal in `directory`.
    static func open(in directory: URL) throws -> (journal: CrashJournal, interrupted: [String]) {
        let path = directory.appendingPathComponent(fileName).path
        let interrupted = read(path)
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw JournalError(path: path, call: "open", code: errno) }
        defer { close(fd) }
        let size = slotSize * slotCount
        guard ftruncate(fd, off_t(size)) == 0 else { throw JournalError(path: path, call: "ftruncate", code: errno) }
        guard let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), mapped != MAP_FAILED else {
            throw JournalError(path: path, call: "mmap", code: errno)
        }
        return (CrashJournal(base: mapped), interrupted)
    }

    private init(base: UnsafeMutableRawPointer) {
        self.base = base
    }

    /// Marks `appID` as running plugin code (true) or not (false).
    func set(_ appID: String, running: Bool) {
        guard let slot = slot(for: appID) else { return }
        base.storeBytes(of: running ? 1 : 0, toByteOffset: slot * Self.slotSize + Self.idBytes, as: UInt8.self)
    }

    /// `appID`'s flag, to set without looking the app up on every call.
    func flag(for appID: String) -> Flag? {
        slot(for: appID).map { Flag(byte: base.advanced(by: $0 * Self.slotSize + Self.idBytes)) }
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

    private static func read(_ path: String) -> [String] {
        guard let data = FileManager.default.contents(atPath: path), data.count == slotSize * slotCount else { return [] }
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
    var description: String { "\(call) \(path): \(String(cString: strerror(code)))" }
}
