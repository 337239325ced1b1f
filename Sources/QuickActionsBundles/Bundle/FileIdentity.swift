#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What identifies one version of a file on disk: device, inode, size, modification and
/// status-change times, mode and owner.
///
/// Two identities differ when the file was replaced (new inode), rewritten (mtime, size) or had
/// its permissions or owner changed (ctime, mode, uid). The broker compares them to notice a
/// changed bundle, and a quarantine can last "until the file's identity changes".
public struct FileIdentity: Sendable, Hashable, CustomStringConvertible {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    /// Modification time, seconds and nanoseconds since the epoch.
    public var modificationSeconds: Int64
    public var modificationNanoseconds: Int64
    /// Status change time (changes with chmod, chown, rename and writes).
    public var changeSeconds: Int64
    public var changeNanoseconds: Int64
    public var mode: UInt32
    public var owner: UInt32

    public init(
        device: UInt64, inode: UInt64, size: Int64,
        modificationSeconds: Int64, modificationNanoseconds: Int64,
        changeSeconds: Int64, changeNanoseconds: Int64,
        mode: UInt32, owner: UInt32
    ) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modificationSeconds = modificationSeconds
        self.modificationNanoseconds = modificationNanoseconds
        self.changeSeconds = changeSeconds
        self.changeNanoseconds = changeNanoseconds
        self.mode = mode
        self.owner = owner
    }

    /// The identity of the file at `path` (following symbolic links, as a reader or `dlopen`
    /// would), or nil when it cannot be `stat`ed.
    public static func of(path: String) -> FileIdentity? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileIdentity(status)
    }

    /// The identity of the open file `descriptor` (`fstat`), or nil when it cannot be `fstat`ed.
    /// A loader that checks a file and then loads it uses this on the descriptor it opened, so
    /// the identity is that of the file actually loaded.
    public static func of(descriptor: Int32) -> FileIdentity? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        return FileIdentity(status)
    }

    /// The identity in a `stat` result.
    public init(_ status: stat) {
        #if canImport(Glibc)
        let modification = status.st_mtim
        let change = status.st_ctim
        #else
        let modification = status.st_mtimespec
        let change = status.st_ctimespec
        #endif
        self.init(
            device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
            modificationSeconds: Int64(modification.tv_sec), modificationNanoseconds: Int64(modification.tv_nsec),
            changeSeconds: Int64(change.tv_sec), changeNanoseconds: Int64(change.tv_nsec),
            mode: UInt32(status.st_mode), owner: UInt32(status.st_uid)
        )
    }

    public var description: String {
        "dev \(device) ino \(inode) size \(size) mtime \(modificationSeconds).\(modificationNanoseconds)"
    }
}

/// The identities of a bundle's files that matter: its Info.plist and its executable.
public struct BundleIdentity: Sendable, Hashable {
    /// `Info.plist`.
    public var infoPlist: FileIdentity
    /// The executable named by `CFBundleExecutable`; nil when it is missing.
    public var executable: FileIdentity?

    public init(infoPlist: FileIdentity, executable: FileIdentity?) {
        self.infoPlist = infoPlist
        self.executable = executable
    }
}
