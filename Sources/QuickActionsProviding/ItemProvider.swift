import QuickActionsModel

/// A source of items for apps that ship no plugin: the installed applications' desktop
/// actions, their recent documents, the controls of a playing media player. The broker knows
/// providers only through this protocol; quickactionsd chooses which run. A fourth provider is
/// a new type beside the others, not a change to the broker.
///
/// A provider publishes its whole set of apps each time anything in it changes (the broker
/// compares per app and announces only the apps that changed), and performs its own items.
/// Both may happen on any thread; the broker never calls a provider on its bus loop, and a
/// provider must never block the caller of `perform` (it answers through `completion`).
public protocol ItemProvider: AnyObject, Sendable {
    /// The provider's name in logs, `quickactions status` and the items' `provider` key:
    /// `desktop-actions`, `recent-documents`, `media-players`.
    var name: String { get }

    /// Whether its first set comes from this machine's files alone (desktop entries, the
    /// bookmark file), so the broker waits for it, bounded, before it takes its name and its
    /// first listing is whole. False for a provider whose first set waits on other processes
    /// answering (media players): the broker serves without it and announces it when it comes.
    var readsLocally: Bool { get }

    /// Starts watching; `publish` receives the first set as soon as it is read, then every
    /// change. Called once.
    func start(publish: @escaping @Sendable ([ProvidedApp]) -> Void)

    /// Performs one of this provider's items. `completion` is called exactly once.
    func perform(_ request: ProvidedPerform, completion: @escaping @Sendable (ProvidedOutcome) -> Void)

    /// Stops watching and releases what `start` took; nothing is published afterwards.
    func stop()
}

/// An installed application as a provider gives it: its id in the API is the desktop file id
/// without `.desktop` (`org.gnome.TextEditor`, `firefox-esr`).
public struct ProvidedApp: Sendable, Hashable {
    public var appID: String
    /// The desktop file id (`org.gnome.TextEditor.desktop`).
    public var desktopID: String
    public var name: LocalizedText
    /// A themed icon name or an absolute file, as the entry's `Icon` gives it.
    public var icon: String?
    /// In display order.
    public var items: [ProvidedItem]

    public init(appID: String, desktopID: String, name: LocalizedText, icon: String?, items: [ProvidedItem]) {
        self.appID = appID
        self.desktopID = desktopID
        self.name = name
        self.icon = icon
        self.items = items
    }
}

/// One item of a provided app. `id` is unique within the app for this provider and stable
/// while the thing it stands for exists (the action's id, the document's URI, the control).
public struct ProvidedItem: Sendable, Hashable {
    public var id: String
    public var type: String
    public var title: LocalizedText
    public var subtitle: LocalizedText?
    /// A themed icon name or an absolute file.
    public var icon: String?
    public var userInfo: UserInfo
    /// True for items that stay as long as the app is installed (desktop actions): they are
    /// listed with origin `static`, the rest with `dynamic`.
    public var isStatic: Bool

    public init(
        id: String, type: String, title: LocalizedText, subtitle: LocalizedText? = nil, icon: String? = nil,
        userInfo: UserInfo = [:], isStatic: Bool
    ) {
        self.id = id
        self.type = type
        self.title = title
        self.subtitle = subtitle
        self.icon = icon
        self.userInfo = userInfo
        self.isStatic = isStatic
    }
}

/// What a Perform of a provided item asks.
public struct ProvidedPerform: Sendable {
    public var appID: String
    public var item: ProvidedItem
    /// The caller's `arguments` option.
    public var arguments: UserInfo
    /// The caller's `activation-token` and `desktop-startup-id` options, passed on to what
    /// the Perform starts.
    public var launch: LaunchContext

    public init(appID: String, item: ProvidedItem, arguments: UserInfo = [:], launch: LaunchContext = LaunchContext()) {
        self.appID = appID
        self.item = item
        self.arguments = arguments
        self.launch = launch
    }
}

/// How a launch is announced to the compositor: the XDG activation token (Wayland) and the
/// startup notification id (X11), each passed on as its environment variable and in D-Bus
/// activation's `platform-data`.
public struct LaunchContext: Sendable, Hashable {
    public var activationToken: String?
    public var startupID: String?

    public init(activationToken: String? = nil, startupID: String? = nil) {
        self.activationToken = activationToken
        self.startupID = startupID
    }
}

/// A provided Perform's result: success with a message naming what happened ("Started New
/// Window (Text Editor)"), or failure with the reason.
public struct ProvidedOutcome: Sendable, Hashable {
    public var success: Bool
    public var message: String

    public init(success: Bool, message: String) {
        self.success = success
        self.message = message
    }

    public static func succeeded(_ message: String) -> ProvidedOutcome { ProvidedOutcome(success: true, message: message) }
    public static func failed(_ message: String) -> ProvidedOutcome { ProvidedOutcome(success: false, message: message) }
}
