/// Which desktop entry belongs to an app, and whether that entry already shows the app's
/// quick actions (as desktop actions). The desktop-entry bridge (module
/// QuickActionsDesktopEntries) answers it; quickactionsd adapts one to the other.
///
/// A dock shows a desktop entry's actions and its quicklist together, so the quicklist
/// carries an app's items only where its desktop entry does not (`showsItems` false: an
/// original that is DBusActivatable, or desktop entries turned off). An app without a
/// desktop entry (nil) gets no quicklist: a dock could not tell which icon it belongs to.
public protocol DesktopEntryLookup: Sendable {
    func desktopEntry(forApp appID: String) -> (desktopID: String, showsItems: Bool)?
}
