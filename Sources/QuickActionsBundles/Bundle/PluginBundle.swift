import Foundation
import QuickActionsModel

/// A plugin bundle as read from disk: its manifest, its strings tables and the identity of its
/// files. Reading it never loads the plugin's library.
public struct PluginBundle: Sendable, Equatable {
    /// The bundle folder.
    public var url: URL
    /// What `Info.plist` declares.
    public var manifest: BundleManifest
    /// The `*.lproj/InfoPlist.strings` tables.
    public var localizations: Localizations
    /// The identities of `Info.plist` and the executable when the bundle was read.
    public var identity: BundleIdentity

    public init(url: URL, manifest: BundleManifest, localizations: Localizations, identity: BundleIdentity) {
        self.url = url
        self.manifest = manifest
        self.localizations = localizations
        self.identity = identity
    }

    /// `CFBundleIdentifier`.
    public var appID: AppID { manifest.appID }
    /// `Info.plist`'s path.
    public var infoPlistURL: URL { url.appendingPathComponent("Info.plist", isDirectory: false) }
    /// The shared library's path (`CFBundleExecutable` inside the bundle).
    public var executableURL: URL { url.appendingPathComponent(manifest.executable, isDirectory: false) }
    /// The static items, not localised.
    public var staticItems: [ShortcutItem] { manifest.items }

    /// The languages the bundle is localised in: its `.lproj` names without `Base`, sorted.
    public var languages: [String] {
        localizations.tables.keys.filter { $0 != "Base" }.sorted()
    }

    /// The display name in `locale`: the tables' entry for `CFBundleDisplayName` (or
    /// `CFBundleName`, whichever gave the name), else the entry for the name itself, else the name.
    public func displayName(locale: String) -> String {
        if let key = manifest.displayNameKey, let name = localizations.lookup(key, locale: locale) {
            return name
        }
        return localizations.localized(manifest.displayName, locale: locale)
    }

    /// The static items with titles and subtitles localised for `locale` (each is a key into the
    /// tables, kept as written where no table has it).
    public func localizedStaticItems(locale: String) -> [ShortcutItem] {
        manifest.items.map { localized($0, locale: locale) }
    }

    /// One static item with its title and subtitle localised for `locale`.
    public func localized(_ item: ShortcutItem, locale: String) -> ShortcutItem {
        var localized = item
        localized.title = localizations.localized(item.title, locale: locale)
        localized.subtitle = item.subtitle.map { localizations.localized($0, locale: locale) }
        return localized
    }

    /// What D-Bus clients get for `icon` (a freedesktop name or an absolute path in this bundle).
    /// - Throws: `IconError` when the icon is invalid or its file escapes the bundle.
    public func resolvedIcon(_ icon: ShortcutIcon) throws(IconError) -> String {
        try IconTable.resolve(icon, bundle: url)
    }
}
