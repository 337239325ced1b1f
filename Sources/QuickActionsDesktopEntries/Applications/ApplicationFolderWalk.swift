import Glibc

/// What an `applications` folder holds: its desktop entries (with the relative paths their
/// desktop file ids come from) and its folders, subfolders included. Symbolic links are
/// followed, but each folder (by device and inode) is entered once, so a link back up the tree
/// cannot loop; and no deeper than ``maximumDepth``.
struct ApplicationFolderWalk: Sendable {
    static let maximumDepth = 16

    /// The folders walked, the root first.
    var folders: [String] = []
    /// Relative paths (`kde/org.kde.dolphin.desktop`) of the `.desktop` files found.
    var entries: [String] = []
    /// Folders left out (a loop, too deep), and why.
    var skipped: [String] = []

    private struct FileIdentity: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    /// Walks `root`; an empty walk when it is missing or not a folder.
    init(root: String) {
        var visited: Set<FileIdentity> = []
        walk(root, relative: "", depth: 0, visited: &visited)
    }

    private mutating func walk(_ folder: String, relative: String, depth: Int, visited: inout Set<FileIdentity>) {
        var status = stat()
        guard stat(folder, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else { return }
        guard visited.insert(FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))).inserted else {
            skipped.append("\(folder): the same folder as one already read (a symbolic link loop?); not read again")
            return
        }
        guard depth <= Self.maximumDepth else {
            skipped.append("\(folder): more than \(Self.maximumDepth) folders deep; not read")
            return
        }
        guard let names = Self.names(in: folder) else {
            skipped.append("\(folder): cannot be listed (\(String(cString: strerror(errno)))); its entries are not read")
            return
        }
        folders.append(folder)
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = folder + "/" + name
            var child = stat()
            guard stat(path, &child) == 0 else { continue }
            if (child.st_mode & S_IFMT) == S_IFDIR {
                walk(path, relative: relative + name + "/", depth: depth + 1, visited: &visited)
            } else if name.hasSuffix(".desktop") {
                entries.append(relative + name)
            }
        }
    }

    /// The entry names of `folder` (without `.` and `..`), by readdir; nil (errno set) when
    /// it cannot be opened.
    static func names(in folder: String) -> [String]? {
        guard let directory = opendir(folder) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The desktop file id of a relative path: its folders joined by `-`.
    static func desktopID(ofRelativePath relative: String) -> String {
        relative.replacingSlashesWithDashes
    }
}

extension String {
    fileprivate var replacingSlashesWithDashes: String {
        String(unicodeScalars.map { $0 == "/" ? "-" : Character($0) })
    }
}
