/// One `<bookmark>` of a Desktop Bookmark file, with the freedesktop metadata
/// (`<metadata owner="http://freedesktop.org">`) GLib's GBookmarkFile writes.
public struct Bookmark: Sendable, Hashable {
    /// `href`: the document's URI, as written (not decoded).
    public var href: String
    /// `added`, `modified`, `visited`: seconds since the Unix epoch, when given and readable.
    public var added: Double?
    public var modified: Double?
    public var visited: Double?
    /// `<title>`, when there is one.
    public var title: String?
    /// `<mime:mime-type type=…>`.
    public var mimeType: String?
    /// `<bookmark:groups>`' `<bookmark:group>`s.
    public var groups: [String]
    /// `<bookmark:applications>`' `<bookmark:application>`s, in file order.
    public var applications: [BookmarkApplication]
    /// `<bookmark:private/>`: only the applications named may show it.
    public var isPrivate: Bool

    public init(
        href: String, added: Double? = nil, modified: Double? = nil, visited: Double? = nil, title: String? = nil,
        mimeType: String? = nil, groups: [String] = [], applications: [BookmarkApplication] = [], isPrivate: Bool = false
    ) {
        self.href = href
        self.added = added
        self.modified = modified
        self.visited = visited
        self.title = title
        self.mimeType = mimeType
        self.groups = groups
        self.applications = applications
        self.isPrivate = isPrivate
    }
}

/// One `<bookmark:application name exec modified count>`: an application that registered the
/// bookmark, and when it last did.
public struct BookmarkApplication: Sendable, Hashable {
    public var name: String
    /// The command line it was registered with, as written (GTK writes it shell-quoted:
    /// `'gedit %u'`).
    public var exec: String
    /// `modified` (ISO 8601), or the older `timestamp` (seconds), as seconds since the epoch.
    public var modified: Double?
    public var count: Int

    public init(name: String, exec: String, modified: Double? = nil, count: Int = 1) {
        self.name = name
        self.exec = exec
        self.modified = modified
        self.count = count
    }
}
