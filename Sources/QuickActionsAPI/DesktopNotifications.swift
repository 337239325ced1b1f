import DBus

/// The freedesktop Desktop Notifications interface (a service others
/// implement: org.freedesktop.Notifications on the session bus) as
/// `quickactions pick` uses it to show a result when it has no terminal.
public enum DesktopNotifications {
    public static let busName: BusName = "org.freedesktop.Notifications"
    public static let path: ObjectPath = "/org/freedesktop/Notifications"
    public static let interface: InterfaceName = "org.freedesktop.Notifications"
    /// Notify(app_name s, replaces_id u, app_icon s, summary s, body s,
    /// actions as, hints a{sv}, expire_timeout i) → id u.
    public static let notify: MemberName = "Notify"
    /// The `urgency` hint (y): 0 low, 1 normal, 2 critical.
    public static let urgencyHint = "urgency"
}
