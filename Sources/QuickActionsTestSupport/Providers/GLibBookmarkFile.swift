import Foundation

/// Writes `recently-used.xbel` with GLib's own GBookmarkFile, the code GTK's recent manager
/// uses, from /usr/bin/python3 (python3-gi's libglib). Debian 12's GLib typelib gives
/// `GLib.BookmarkFile` no constructor (pygobject refuses `GLib.BookmarkFile()`), so the script
/// calls the same libglib functions through ctypes: `g_bookmark_file_new`, `set_mime_type`,
/// `add_application`, `set_application_info` with a `GDateTime`, `set_is_private`, `to_file`
/// (which, like GTK's, writes a temporary file and renames it over the old one).
public enum GLibBookmarkFile {
    public struct Application: Encodable, Sendable {
        public var name: String
        public var exec: String
        /// Seconds since the epoch.
        public var modified: Int
        public var count: Int

        public init(name: String, exec: String, modified: Int, count: Int = 1) {
            self.name = name
            self.exec = exec
            self.modified = modified
            self.count = count
        }
    }

    public struct Entry: Encodable, Sendable {
        public var uri: String
        public var mime: String?
        public var applications: [Application]
        public var isPrivate: Bool
        public var title: String?
        public var groups: [String]

        public init(uri: String, mime: String? = nil, applications: [Application], isPrivate: Bool = false,
                    title: String? = nil, groups: [String] = []) {
            self.uri = uri
            self.mime = mime
            self.applications = applications
            self.isPrivate = isPrivate
            self.title = title
            self.groups = groups
        }
    }

    public static let script = #"""
        import ctypes, json, sys
        g = ctypes.CDLL("libglib-2.0.so.0")
        P, S = ctypes.c_void_p, ctypes.c_char_p
        g.g_bookmark_file_new.restype = P
        g.g_date_time_new_from_unix_utc.restype = P
        g.g_date_time_new_from_unix_utc.argtypes = [ctypes.c_int64]
        g.g_date_time_unref.argtypes = [P]
        g.g_bookmark_file_set_mime_type.argtypes = [P, S, S]
        g.g_bookmark_file_set_title.argtypes = [P, S, S]
        g.g_bookmark_file_add_group.argtypes = [P, S, S]
        g.g_bookmark_file_add_application.argtypes = [P, S, S, S]
        g.g_bookmark_file_set_application_info.argtypes = [P, S, S, S, ctypes.c_int, P, P]
        g.g_bookmark_file_set_application_info.restype = ctypes.c_int
        g.g_bookmark_file_set_is_private.argtypes = [P, S, ctypes.c_int]
        g.g_bookmark_file_to_file.argtypes = [P, S, P]
        g.g_bookmark_file_to_file.restype = ctypes.c_int
        spec = json.load(sys.stdin)
        b = g.g_bookmark_file_new()
        e = lambda s: s.encode()
        for item in spec["entries"]:
            uri = e(item["uri"])
            if item.get("mime"):
                g.g_bookmark_file_set_mime_type(b, uri, e(item["mime"]))
            for app in item["applications"]:
                g.g_bookmark_file_add_application(b, uri, e(app["name"]), e(app["exec"]))
                stamp = g.g_date_time_new_from_unix_utc(app["modified"])
                if not g.g_bookmark_file_set_application_info(b, uri, e(app["name"]), e(app["exec"]), app["count"], stamp, None):
                    sys.exit("set_application_info failed for " + item["uri"])
                g.g_date_time_unref(stamp)
            for group in item.get("groups", []):
                g.g_bookmark_file_add_group(b, uri, e(group))
            if item.get("title"):
                g.g_bookmark_file_set_title(b, uri, e(item["title"]))
            if item.get("isPrivate"):
                g.g_bookmark_file_set_is_private(b, uri, 1)
        if not g.g_bookmark_file_to_file(b, e(spec["path"]), None):
            sys.exit("to_file failed for " + spec["path"])
        """#

    private struct Spec: Encodable {
        var path: String
        var entries: [Entry]
    }

    /// Writes `entries` to `path` (replacing it by rename, as GLib does).
    public static func write(_ entries: [Entry], to path: String) async throws {
        let input = String(decoding: try JSONEncoder().encode(Spec(path: path, entries: entries)), as: UTF8.self)
        let result = try await Command.run("/usr/bin/python3", ["-c", script], input: input)
        guard result.status == 0 else { throw TestSupportError("GLib's bookmark writer failed: \(result)") }
    }
}
