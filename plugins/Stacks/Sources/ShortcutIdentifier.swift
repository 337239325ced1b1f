/// The Stacks quick actions, one per tab. The raw value is the short identifier that follows
/// the bundle identifier in the item's full type (`com.example.stacks.OpenFavorites`).
enum ShortcutIdentifier: String, CaseIterable, Sendable {
    case openFavorites = "OpenFavorites"
    case openFeatured = "OpenFeatured"
    case openTopRated = "OpenTopRated"

    /// The identifier of a full type: nil unless `fullType` is `bundleIdentifier`, a dot and
    /// one of the short identifiers (a type from another app, or an unknown tab, is refused).
    init?(fullType: String, bundleIdentifier: String) {
        let prefix = bundleIdentifier + "."
        guard fullType.hasPrefix(prefix) else { return nil }
        self.init(rawValue: String(fullType.dropFirst(prefix.count)))
    }

    /// The full item type for the app `bundleIdentifier`.
    func fullType(bundleIdentifier: String) -> String {
        "\(bundleIdentifier).\(rawValue)"
    }

    /// The tab the quick action selects.
    var tab: Tab {
        switch self {
        case .openFavorites: return .favorites
        case .openFeatured: return .featured
        case .openTopRated: return .topRated
        }
    }
}

/// The tabs of the Stacks app's tab bar.
enum Tab: String, Sendable {
    case favorites = "Favorites"
    case featured = "Featured"
    case topRated = "Top Rated"
}
