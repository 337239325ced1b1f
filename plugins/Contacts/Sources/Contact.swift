import QuickActionsSDK

/// One contact of the address book: what the iOS sample's contact manager keeps.
struct Contact: Codable, Hashable, Sendable {
    var name: String
    var email: String
    var favorite: Bool

    /// The contacts a first run starts with.
    static let samples: [Contact] = [
        Contact(name: "Mia Schneider", email: "mia@example.org", favorite: true),
        Contact(name: "Noah Becker", email: "noah@example.org", favorite: false),
        Contact(name: "Emma Wagner", email: "emma@example.org", favorite: true),
        Contact(name: "Liam Fischer", email: "liam@example.org", favorite: false),
    ]

    /// The user info of the contact's quick action: its name under `Name`, as in the iOS sample.
    /// (A real app would rather carry a stable identifier.)
    var quickActionUserInfo: UserInfo {
        [ContactsActionType.nameKey: .string(name)]
    }

    /// The dynamic `FavoriteAction` for this contact: title the name, subtitle the email.
    var favoriteShortcut: ShortcutItem {
        ShortcutItem(
            type: ContactsActionType.favorite.rawValue, title: name, subtitle: email, icon: .type(.contact),
            userInfo: quickActionUserInfo)
    }
}
