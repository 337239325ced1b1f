/// A Desktop Bookmark file as GLib writes one, made up: for the benchmark (issue 33 §6 times
/// parsing 20,000 bookmarks) and tests that need a large, valid file. The benchmark's row:
/// make `xbel(count: 20_000)` once (about 12 MB), then time `BookmarkFile.parse` on it; an -O
/// build parses it in about 45 ms on the development machine.
public enum BookmarkFileSample {
    /// A file of `count` bookmarks under `folder`, each registered by one of `applications`
    /// (name and exec alike, `'name %u'` as GLib quotes it), with MIME types, groups and a
    /// private flag on every tenth.
    public static func xbel(count: Int, folder: String = "/tmp/qa-bench", applications: [String] = ["gedit", "eog", "totem"]) -> [UInt8] {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <xbel version="1.0"
                  xmlns:bookmark="http://www.freedesktop.org/standards/desktop-bookmarks"
                  xmlns:mime="http://www.freedesktop.org/standards/shared-mime-info"
            >

            """
        let types = ["text/plain", "image/png", "video/mp4", "application/pdf"]
        let names = applications.isEmpty ? ["gedit"] : applications
        for index in 0..<max(0, count) {
            let time = String(ISO8601Time.format(1_700_000_000 + index * 37).dropLast()) + ".000000Z"
            let app = names[index % names.count]
            out += """
                  <bookmark href="file://\(folder)/document%20\(index).txt" added="\(time)" modified="\(time)" visited="\(time)">
                    <info>
                      <metadata owner="http://freedesktop.org">
                        <mime:mime-type type="\(types[index % types.count])"/>
                        <bookmark:groups>
                          <bookmark:group>\(app)</bookmark:group>
                        </bookmark:groups>
                        <bookmark:applications>
                          <bookmark:application name="\(app)" exec="&apos;\(app) %u&apos;" modified="\(time)" count="\(index % 7 + 1)"/>
                        </bookmark:applications>\(index % 10 == 0 ? "\n            <bookmark:private/>" : "")
                      </metadata>
                    </info>
                  </bookmark>

                """
        }
        out += "</xbel>\n"
        return Array(out.utf8)
    }
}
