import DBus
import QuickActionsAPI
/// Options several commands share, and how their values are read.
enum CommonOptions {
    static let json = OptionSpec(
        "json",
        help: "Print the data as one JSON document (sorted keys), for scripts; a failure prints "
            + "{\"error\": {\"name\", \"message\"}} there too.")
    static let wide = OptionSpec(
        "wide", help: "Show every cell whole instead of fitting rows to the terminal's width.")
    static let locale = OptionSpec(
        "locale", kind: .value(name: "locale"),
        help: "Titles in this locale, e.g. de_DE (default: the broker's own locale).")
    static let limit = OptionSpec(
        "limit", kind: .value(name: "n"), help: "At most this many items per app, static ones first.")
    static let timeout = OptionSpec(
        "timeout", kind: .value(name: "seconds"),
        help: "Give the plugin this long to complete, 0.001 to 600 (default: the broker's, 20 s unless configured).")
    static let argument = OptionSpec(
        "arg", kind: .repeating(name: "key=value"),
        help: "Caller data for the plugin; repeat for more. KEY=VALUE is a string; KEY:int=42, KEY:bool=true, "
            + "KEY:double=1.5 and KEY:string=text give the type (short forms :i :b :d :s).")
    static let activationToken = OptionSpec(
        "activation-token", kind: .value(name: "token"),
        help: "An XDG activation token for the app's window (default: $XDG_ACTIVATION_TOKEN, else $DESKTOP_STARTUP_ID).")

    /// `--locale`: any non-empty text.
    static func locale(_ arguments: ParsedArguments) throws(UsageError) -> String? {
        guard let value = arguments.value("locale") else { return nil }
        guard !value.isEmpty, !value.contains(where: \.isWhitespace) else {
            throw UsageError("--locale \(value.quoted(mark: "'")) is not a locale name such as de_DE or fr")
        }
        return value
    }

    /// `--limit`: a whole number from 0 to 4294967295.
    static func limit(_ arguments: ParsedArguments) throws(UsageError) -> UInt32? {
        guard let value = arguments.value("limit") else { return nil }
        guard let number = UInt32(value) else {
            throw UsageError("--limit \(value.quoted(mark: "'")) is not a whole number from 0 to \(UInt32.max)")
        }
        return number
    }

    /// `--timeout`: seconds (decimals allowed) from 0.001 to 600, as milliseconds.
    static func timeoutMilliseconds(_ arguments: ParsedArguments) throws(UsageError) -> UInt32? {
        guard let value = arguments.value("timeout") else { return nil }
        let maximum = Double(BrokerAPI.maximumTimeoutMilliseconds) / 1000
        guard let seconds = Double(value), seconds.isFinite, seconds >= 0.001, seconds <= maximum else {
            throw UsageError("--timeout \(value.quoted(mark: "'")) is not a number of seconds from 0.001 to \(Int(maximum))")
        }
        return max(1, UInt32((seconds * 1000).rounded()))
    }

    /// `--activation-token`, else the environment's token, else none.
    static func activationToken(_ arguments: ParsedArguments, environment: [String: String]) -> String? {
        if let token = arguments.value("activation-token") { return token }
        for key in ["XDG_ACTIVATION_TOKEN", "DESKTOP_STARTUP_ID"] {
            if let token = environment[key], !token.isEmpty { return token }
        }
        return nil
    }
}
