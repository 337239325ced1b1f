/// An installed application: a desktop entry found as the Desktop Entry Specification says
/// and shown (not `Hidden` or `NoDisplay`, `OnlyShowIn`/`NotShowIn` matching the desktop,
/// `TryExec` found). The providers share one index of them.
public struct InstalledApplication: Sendable, Hashable {
    /// The desktop file id (`org.gnome.TextEditor.desktop`; subfolders joined by `-`).
    public var desktopID: String
    /// The id in the API: the desktop file id without `.desktop`.
    public var appID: String
    /// The entry's file.
    public var path: String
    /// `Name`, with its translations.
    public var name: LocalizedText
    /// `Icon`: a themed name or an absolute file.
    public var icon: String?
    /// `Exec` as a string value (string escapes undone, the Exec quoting still in place).
    public var exec: String?
    /// `Path`: the folder a launch runs in.
    public var workingDirectory: String?
    public var terminal: Bool
    public var dbusActivatable: Bool
    /// `MimeType`.
    public var mimeTypes: [String]
    /// The `[Desktop Action ID]` groups named in `Actions=`, in that order.
    public var actions: [DesktopAction]

    public init(
        desktopID: String, appID: String, path: String, name: LocalizedText, icon: String? = nil, exec: String? = nil,
        workingDirectory: String? = nil, terminal: Bool = false, dbusActivatable: Bool = false, mimeTypes: [String] = [],
        actions: [DesktopAction] = []
    ) {
        self.desktopID = desktopID
        self.appID = appID
        self.path = path
        self.name = name
        self.icon = icon
        self.exec = exec
        self.workingDirectory = workingDirectory
        self.terminal = terminal
        self.dbusActivatable = dbusActivatable
        self.mimeTypes = mimeTypes
        self.actions = actions
    }

    /// The program `exec` runs: its first word, unquoted, as a file name without its folder
    /// (`/usr/bin/gedit --new-window` → `gedit`); nil when there is none or it cannot be read.
    public var program: String? {
        guard let exec, let first = ExecWords.first(of: exec), !first.isEmpty else { return nil }
        return first.split(separator: "/").last.map(String.init) ?? first
    }
}

/// One `[Desktop Action ID]` group.
public struct DesktopAction: Sendable, Hashable {
    public var id: String
    public var name: LocalizedText
    public var icon: String?
    public var exec: String?

    public init(id: String, name: LocalizedText, icon: String? = nil, exec: String? = nil) {
        self.id = id
        self.name = name
        self.icon = icon
        self.exec = exec
    }
}

/// The installed applications, kept current: the desktop-actions, recent-documents and
/// media-players providers all read one index.
public protocol InstalledApplications: AnyObject, Sendable {
    /// Every shown application, by app id.
    var applications: [String: InstalledApplication] { get }
    /// Calls `handler` with the whole set after every change (and never before `observe`
    /// returns). The handler stays until the returned token is cancelled.
    func observe(_ handler: @escaping @Sendable ([String: InstalledApplication]) -> Void) -> ObservationToken
}

/// Cancels an observation; dropping the last reference to it cancels it too.
public final class ObservationToken: Sendable {
    private let cancelling: @Sendable () -> Void

    public init(cancel: @escaping @Sendable () -> Void) {
        cancelling = cancel
    }

    public func cancel() { cancelling() }

    deinit { cancelling() }
}

/// Starts an installed application as the Desktop Entry Specification says: by D-Bus activation
/// (`org.freedesktop.Application`) for a `DBusActivatable` entry, else its `Exec` (or its
/// action's) with field codes expanded, never through a shell, detached from the broker.
public protocol ApplicationLaunching: Sendable {
    /// Launches `app`, or its action `action` (an id from its `actions`), with `uris` for the
    /// document field codes (`file://` URIs; `%f`/`%F` get their paths). `completion` is called
    /// once, with a message naming what started or why nothing did.
    func launch(
        _ app: InstalledApplication, action: String?, uris: [String], context: LaunchContext,
        completion: @escaping @Sendable (ProvidedOutcome) -> Void)
}

/// The first word of an `Exec` value as the specification's quoting rules read it.
enum ExecWords {
    static func first(of exec: String) -> String? {
        var word = ""
        var quoted = false
        var escaped = false
        var started = false
        for character in exec {
            if escaped {
                word.append(character)
                escaped = false
            } else if quoted {
                switch character {
                case "\\": escaped = true
                case "\"": quoted = false
                default: word.append(character)
                }
            } else if character == " " || character == "\t" || character == "\n" {
                if started { return word }
            } else if character == "\"" {
                quoted = true
                started = true
            } else {
                word.append(character)
                started = true
            }
        }
        return quoted || !started ? nil : word
    }
}
