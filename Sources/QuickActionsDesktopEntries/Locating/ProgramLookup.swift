import Glibc

/// Finds a program as `execvp` would, without running anything: an absolute path as given, a
/// name in each folder of a `PATH` value in order. Used for `TryExec` (whether an entry is
/// shown) and for the program a launch starts.
public enum ProgramLookup {
    /// The program's absolute path: a regular file this process may execute; nil when there
    /// is none. A relative name holding `/` is refused: an entry's program never depends on
    /// the broker's working folder.
    public static func find(_ program: String, searchPath: String?) -> String? {
        guard !program.isEmpty else { return nil }
        if program.hasPrefix("/") { return isExecutableFile(program) ? program : nil }
        guard !program.contains("/") else { return nil }
        let folders = (searchPath ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: true)
        for folder in folders where folder.hasPrefix("/") {
            let candidate = folder.hasSuffix("/") ? "\(folder)\(program)" : "\(folder)/\(program)"
            if isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    static func isExecutableFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
    }
}
