#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The names in a folder, read with opendir/readdir: no Foundation strings or URLs per entry
/// (`FileManager.contentsOfDirectory` costs a bundle's read several times over), and every
/// failure seen with its errno, so a listing that fails half-way is a failure, never a
/// shorter list.
enum FolderNames {
    /// Every name in the folder at `path` but `.` and `..`, in the order readdir gives them.
    static func list(_ path: String) -> Result<[String], SystemCallError> {
        guard let stream = opendir(path) else {
            return .failure(SystemCallError(call: "opendir", path: path, errno: currentErrno()))
        }
        defer { closedir(stream) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                let code = currentErrno()
                if code != 0 { return .failure(SystemCallError(call: "readdir", path: path, errno: code)) }
                return .success(names)
            }
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }
}
