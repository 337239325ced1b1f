/// The icon of a shortcut item, as the plugin or manifest declared it.
///
/// Mirrors `UIApplicationShortcutIcon`: a system type, an SF-Symbol-like name,
/// or an image file shipped in the bundle. `IconTable.resolve(_:bundle:)` (or
/// `PluginBundle.resolvedIcon(_:)`) turns it into what D-Bus clients see: a
/// freedesktop icon name or an absolute path inside the bundle.
public enum ShortcutIcon: Sendable, Hashable {
    /// One of the 29 `UIApplicationShortcutIconType…` names.
    case type(ShortcutIconType)
    /// A symbol name (`UIApplicationShortcutItemIconSymbolName`); maps through
    /// the icon table where it has an entry, else passes through as an icon name.
    case symbol(String)
    /// A file inside the bundle, relative to its root (`UIApplicationShortcutItemIconFile`).
    case file(String)
}
