import Glibc
import Synchronization

/// Startup notification ids for what the bridges launch, made as GLib's launch contexts make
/// them (`<program>-<pid>-<host>-<app>-<n>_TIME<timestamp>`): the `_TIME` part carries the
/// X11 time of the user's click, by which the window manager lets the new window take focus
/// (the startup-notification specification).
enum StartupID {
    private static let sequence = Atomic<UInt64>(0)

    /// Nil without a timestamp: an id without one is worth nothing to a window manager.
    static func make(app: String, timestamp: UInt32) -> String? {
        guard timestamp != 0 else { return nil }
        let n = sequence.add(1, ordering: .relaxed).newValue
        // The id is one word of ASCII: other characters of the app id (a space, a slash) become "_".
        let name = String(String.UnicodeScalarView(app.unicodeScalars.prefix(64).map {
            $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "." || $0 == "-") ? $0 : "_"
        }))
        return "quickactions-\(getpid())-\(hostName())-\(name)-\(n)_TIME\(timestamp)"
    }

    private static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "localhost" : name.replacingOccurrences(of: " ", with: "_")
    }
}
