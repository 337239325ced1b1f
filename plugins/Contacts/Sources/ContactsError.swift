/// Why the Contacts example could not do what was asked; each case names the value at fault.
enum ContactsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The plugin has no data directory to keep its contacts in.
    case noDataDirectory
    /// The contacts file cannot be read or is not a contact list.
    case unreadable(path: String, reason: String)
    /// The contacts file cannot be written.
    case unwritable(path: String, reason: String)
    /// No contact has this name.
    case unknownContact(String)
    /// A caller argument has the wrong type or is missing.
    case badArgument(name: String, reason: String)
    /// The item's type is not one of ``ContactsActionType``.
    case unknownType(String)

    var description: String {
        switch self {
        case .noDataDirectory:
            return "Contacts has no data directory for its contacts file (see the broker's log)"
        case .unreadable(let path, let reason):
            return "cannot read the contacts file \(path): \(reason)"
        case .unwritable(let path, let reason):
            return "cannot write the contacts file \(path): \(reason)"
        case .unknownContact(let name):
            return "no contact is named '\(name)'"
        case .badArgument(let name, let reason):
            return "argument '\(name)' \(reason)"
        case .unknownType(let type):
            let known = ContactsActionType.allCases.map(\.rawValue).joined(separator: ", ")
            return "Contacts has no quick action of type '\(type)' (it has \(known))"
        }
    }
}
