/// A command line the parser or a command rejects: exit code 2. The
/// description is one line naming the value at fault.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The command the error is about ("list"), or nil for the top level.
    public let command: String?
    public let message: String
    /// The D-Bus error name when the broker refused the value (InvalidArgs), else nil.
    public let dbusName: String?

    public init(_ message: String, command: String? = nil, dbusName: String? = nil) {
        self.command = command
        self.message = message
        self.dbusName = dbusName
    }

    public var description: String { message }

    /// The same error, attributed to `command` unless it already names one.
    func attributed(to command: String) -> UsageError {
        self.command == nil ? UsageError(message, command: command, dbusName: dbusName) : self
    }
}
