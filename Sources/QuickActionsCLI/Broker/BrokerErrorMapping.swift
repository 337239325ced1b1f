import DBus
import QuickActionsAPI

/// Turns what the bus or the broker answered into the CLI's error, and so its
/// exit code: one place for the mapping the help documents.
public enum BrokerErrorMapping {
    /// Errors meaning nobody answers for the broker's name.
    static let notRunning: Set<String> = [ErrorName.serviceUnknown.rawValue, ErrorName.nameHasNoOwner.rawValue]

    /// The prefix of the errors a bus answers when D-Bus activation of the
    /// broker failed (`org.freedesktop.DBus.Error.Spawn.ExecFailed`, `.ChildExited`, …).
    static let spawnPrefix = "org.freedesktop.DBus.Error.Spawn."

    /// How to start the broker, for messages.
    public static func startHint(_ globals: GlobalOptions) -> String {
        switch globals.bus {
        case .session:
            "start it with 'systemctl --user start quickactionsd' or run 'quickactionsd'"
        case .system:
            "start it with 'quickactionsd --system' as a user the system bus policy allows"
        case .address(let address):
            "start it with 'quickactionsd --address \(address)'"
        }
    }

    /// The error for a bus that cannot be connected to at all.
    public static func connectionFailed(_ error: DBusError, globals: GlobalOptions) -> CLIError {
        var message = "cannot connect to \(globals.busDescription): \(oneLine(error.message))"
        if globals.bus == .session {
            message += "; is a D-Bus session running (DBUS_SESSION_BUS_ADDRESS)?"
        }
        return .unreachable(message, name: error.name.rawValue)
    }

    /// Maps an error answered to a call (`what` says which call, for messages).
    public static func map(_ error: DBusError, globals: GlobalOptions, calling what: String) -> CLIError {
        let name = error.name.rawValue
        let message = oneLine(error.message)
        switch name {
        case BrokerAPI.ErrorNames.unknownApplication.rawValue, BrokerAPI.ErrorNames.unknownItem.rawValue:
            return .notFound(message, name: name)
        case BrokerAPI.ErrorNames.pluginFailed.rawValue, BrokerAPI.ErrorNames.timeout.rawValue:
            return .pluginFailed(message, name: name)
        case BrokerAPI.ErrorNames.applicationInstalled.rawValue:
            return .failed(message, name: name)
        case ErrorName.invalidArgs.rawValue:
            return .usage(UsageError("the broker rejected \(what): \(message)", dbusName: name))
        case _ where name.hasPrefix(spawnPrefix):
            return .unreachable(
                "\(globals.busDescription) could not start the broker (\(BrokerAPI.busName.rawValue)) by D-Bus "
                    + "activation: \(message) (\(name)); check the Exec line of its activation file "
                    + "(\(BrokerAPI.busName.rawValue).service) and the broker's log", name: name)
        case _ where notRunning.contains(name):
            return .unreachable(
                "the broker (\(BrokerAPI.busName.rawValue)) is not running on \(globals.busDescription); "
                    + startHint(globals), name: name)
        case ErrorName.noReply.rawValue, ErrorName.timeout.rawValue:
            return .unreachable(
                "the broker (\(BrokerAPI.busName.rawValue)) on \(globals.busDescription) did not answer \(what): \(message)", name: name)
        case ErrorName.disconnected.rawValue, ErrorName.accessDenied.rawValue, ErrorName.ioError.rawValue:
            return .unreachable("cannot reach the broker on \(globals.busDescription) for \(what): \(message)", name: name)
        default:
            return .failed("the broker refused \(what): \(message) (\(name))", name: name)
        }
    }

    /// Messages end up on one line of stderr.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
