import QuickActionsModel

/// Why a bundle could not be used. Each case names the file and the value at fault.
public enum BundleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The file is larger than `BundleManifest.maximumInfoPlistSize`.
    case tooLarge(path: String, bytes: Int)
    /// The file is not a binary or XML property list, or a broken one; `reason` says where.
    case notAPropertyList(path: String, reason: String)
    /// The top level is not a dictionary.
    case notADictionary(path: String, found: String)
    /// A required key is absent.
    case missingKey(path: String, key: String)
    /// A key holds the wrong type of value.
    case wrongType(path: String, key: String, expected: String, found: String)
    /// `CFBundleIdentifier` is not a valid app id.
    case invalidAppID(path: String, AppIDError)
    /// `CFBundleExecutable` is not a plain file name inside the bundle.
    case invalidExecutable(path: String, name: String, reason: String)

    /// The file at fault.
    public var path: String {
        switch self {
        case .unreadable(let path, _), .tooLarge(let path, _), .notAPropertyList(let path, _),
            .notADictionary(let path, _), .missingKey(let path, _), .wrongType(let path, _, _, _),
            .invalidAppID(let path, _), .invalidExecutable(let path, _, _):
            return path
        }
    }

    /// What is wrong, without the path.
    public var reason: String {
        switch self {
        case .unreadable(_, let reason):
            return "cannot be read: \(reason)"
        case .tooLarge(_, let bytes):
            return "is \(bytes) bytes, more than the \(BundleManifest.maximumInfoPlistSize) an Info.plist may have"
        case .notAPropertyList(_, let reason):
            return "is not a property list: \(reason)"
        case .notADictionary(_, let found):
            return "holds \(found) at the top level, not a dictionary"
        case .missingKey(_, let key):
            return "has no \(key)"
        case .wrongType(_, let key, let expected, let found):
            return "\(key) is \(found), not \(expected)"
        case .invalidAppID(_, let error):
            return "CFBundleIdentifier: \(error)"
        case .invalidExecutable(_, let name, let reason):
            return "CFBundleExecutable \(name.quotedForMessage) \(reason)"
        }
    }

    public var description: String { "\(path): \(reason)" }

    /// The error as a diagnostic of severity `.error`.
    public var diagnostic: Diagnostic {
        Diagnostic(file: path, reason: reason, severity: .error)
    }
}
