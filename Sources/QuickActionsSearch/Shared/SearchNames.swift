import DBus

/// The bridges' own names on the bus (docs/search.md).
///
/// One well-known name, owned by the bridges' connection in quickactionsd, serves every
/// bridge: KRunner's `X-Plasma-DBusRunner-Service` and GNOME Shell's `BusName` both name it,
/// and its activation file runs quickactionsd, the same program the broker's does. So a
/// desktop shell's first call starts one quickactionsd, which takes Broker1 and then Search1;
/// when the broker already runs (with its bridges), the name has an owner and nothing starts.
public enum SearchNames {
    public static let busName: BusName = "org.quickactions.Search1"
    public static let rootPath: ObjectPath = "/org/quickactions/Search1"
    /// org.gnome.Shell.SearchProvider2.
    public static let gnomeShellPath: ObjectPath = "/org/quickactions/Search1/GnomeShell"
    /// org.kde.krunner1.
    public static let krunnerPath: ObjectPath = "/org/quickactions/Search1/KRunner"
    /// Each app's dbusmenu quicklist: `<this>/<escaped app id>`.
    public static let dockMenusPath: ObjectPath = "/org/quickactions/Search1/Dock"
    /// Where LauncherEntry's Update signals come from.
    public static let launcherEntryPath: ObjectPath = "/org/quickactions/Search1/LauncherEntry"
}
