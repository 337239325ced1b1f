/// The item types the Contacts example performs.
enum ContactsActionType: String, CaseIterable, Sendable {
    /// Static: "Search", "Search for an item".
    case search = "SearchAction"
    /// Static: "Share", "Share an item".
    case share = "ShareAction"
    /// Dynamic: one per favorite contact, carrying its name in the user info.
    case favorite = "FavoriteAction"

    /// The user-info key that names the contact an item is about.
    static let nameKey = "Name"
}
