import QuickActionsSDK

/// The app version the static items carry in their user info (key `version`).
///
/// Static user info is written at build time and cannot ask the running plugin its version, so
/// the Info.plist spells it out: `CFBundleShortVersionString` and every item's `version` equal
/// ``current`` (a test checks the three agree). The plugin checks the version of every item it
/// performs, the hook a later release needs to treat items of an older bundle differently.
enum StacksVersion {
    /// This build's version; keep it equal to the Info.plist's.
    static let current = "1.2"
    /// The user-info key of the version.
    static let userInfoKey = "version"

    /// Nil when `item` carries this build's version, else why it does not.
    static func problem(with item: ShortcutItem) -> String? {
        switch item.userInfo[userInfoKey] {
        case .string(current)?:
            return nil
        case .string(let other)?:
            return "item \(item.type) was declared by Stacks \(other), this is Stacks \(current); reinstall the bundle"
        case let other?:
            return "item \(item.type) has a user-info '\(userInfoKey)' that is not a string: \(other)"
        case nil:
            return "item \(item.type) has no user-info '\(userInfoKey)'"
        }
    }
}
