import QuickActionsAPI
import DBus
import Dispatch
import FolderWatching
import Foundation
import Locking
import QuickActionsModel
import QuickActionsProviding

/// Recent documents (issue 33 §4): each installed application's last documents from the
/// Desktop Bookmark file `$XDG_DATA_HOME/recently-used.xbel`, as dynamic items.
///
/// The file's folder is watched (inotify, bursts coalesced) and the index of installed
/// applications observed; nothing polls. A file that cannot be read is refused with a log line
/// naming it and the reason, and the items read before stay. With a bus connection, the
/// settings portal's `remember-recent-files` is followed: false offers no items.
public final class RecentDocumentsProvider: ItemProvider {
    public let name = ItemKey.Provider.recentDocuments
    /// The bookmark file, read from disk; the settings portal's answer on privacy is one call
    /// the broker's bounded wait covers.
    public let readsLocally = true
    /// The item type of every recent document.
    public static let itemType = "org.quickactions.recent-document"

    public struct Settings: Sendable {
        /// Documents per app, most recent first (at most `ItemLimits.maximumItems`).
        public var limit: Int
        /// The bookmark file; nil for `$XDG_DATA_HOME/recently-used.xbel` (`~/.local/share`).
        public var file: String?
        public var fileLimits: BookmarkFile.Limits
        /// How long a burst of changes in the file's folder is gathered before it is re-read.
        public var settleDelay: Duration
        /// How long the settings portal may take to answer.
        public var portalTimeout: Duration
        public var log: @Sendable (LogLevel, String) -> Void

        public init(
            limit: Int = 5, file: String? = nil, fileLimits: BookmarkFile.Limits = BookmarkFile.Limits(),
            settleDelay: Duration = .milliseconds(200), portalTimeout: Duration = .seconds(5),
            log: @escaping @Sendable (LogLevel, String) -> Void = Settings.standardErrorLog
        ) {
            self.limit = limit
            self.file = file
            self.fileLimits = fileLimits
            self.settleDelay = settleDelay
            self.portalTimeout = portalTimeout
            self.log = log
        }

        public static let standardErrorLog: @Sendable (LogLevel, String) -> Void = { level, message in
            FileHandle.standardError.write(Data("recent-documents: \(level): \(message)\n".utf8))
        }
    }

    private let applications: any InstalledApplications
    private let launcher: any ApplicationLaunching
    private let connection: Connection?
    private let settings: Settings
    private let limit: Int
    /// The bookmark file and its folder.
    public let file: String
    private let folder: String
    private let home: String?
    private let icons: MimeIcons
    private let queue = DispatchQueue(label: "org.quickactions.providers.recent-documents")
    private let state = Locked<State>(State())

    private struct State {
        var publish: (@Sendable ([ProvidedApp]) -> Void)?
        var started = false
        var stopped = false
        var apps: [String: InstalledApplication] = [:]
        /// The last file read well, and what identified it (device, inode, size, change time).
        var bookmarks: [Bookmark] = []
        var fileStamp: [Int]?
        /// nil until the portal has answered (or there is none to ask).
        var remember: Bool?
        var published: [ProvidedApp]?
        var watcher: FolderWatcher?
        var observation: ObservationToken?
        var privacy: RecentFilesPrivacy?
    }

    /// - Parameters:
    ///   - applications: the index of installed applications the documents are matched with.
    ///   - launcher: opens a document in its application.
    ///   - connection: the session bus, for the settings portal; nil remembers recent files.
    ///   - environment: where `XDG_DATA_HOME`, `XDG_DATA_DIRS` and `HOME` come from.
    ///   - icons: MIME type icons; by default those of `environment`'s data folders.
    public init(
        applications: any InstalledApplications, launcher: any ApplicationLaunching, connection: Connection? = nil,
        settings: Settings = Settings(), environment: [String: String] = ProcessInfo.processInfo.environment,
        icons: MimeIcons? = nil
    ) {
        self.applications = applications
        self.launcher = launcher
        self.connection = connection
        self.settings = settings
        limit = max(0, min(settings.limit, ItemLimits.maximumItems))
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        self.home = home
        var dataHome = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        if dataHome == nil, let home { dataHome = home + "/.local/share" }
        let dataHomeFolder = dataHome ?? "/nonexistent"
        file = settings.file ?? dataHomeFolder + "/recently-used.xbel"
        folder = FolderWatcher.Watches.parentFolder(of: file) ?? dataHomeFolder
        let dataDirs = (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        self.icons = icons ?? MimeIcons(dataDirectories: [dataHomeFolder] + dataDirs)
    }

    public func start(publish: @escaping @Sendable ([ProvidedApp]) -> Void) {
        let first = state.withLock { state -> Bool in
            guard !state.started, !state.stopped else { return false }
            state.started = true
            state.publish = publish
            return true
        }
        guard first else { return }
        let observation = applications.observe { [weak self] apps in
            guard let self else { return }
            queue.async {
                self.state.withLock { $0.apps = apps }
                self.republish()
            }
        }
        let folder = folder
        let watcher: FolderWatcher?
        do {
            watcher = try FolderWatcher(
                label: "org.quickactions.providers.recent-documents.watch",
                delay: .nanoseconds(Int(settings.settleDelay.components.seconds * 1_000_000_000
                    + settings.settleDelay.components.attoseconds / 1_000_000_000)),
                watch: { watches in
                    if !watches.add(folder, [.contents, .onlyFolders]) { watches.addNearestAncestor(of: folder) }
                },
                changed: { [weak self] in
                    guard let self else { return }
                    queue.async {
                        self.reload()
                        self.republish()
                    }
                })
        } catch {
            settings.log(.warning, "cannot watch \(folder) (\(error)); \(file) is read only at start")
            watcher = nil
        }
        var privacy: RecentFilesPrivacy?
        if let connection {
            privacy = RecentFilesPrivacy(connection: connection, timeout: settings.portalTimeout) { [settings] in
                settings.log(.info, $0)
            }
        }
        let kept = state.withLock { state -> Bool in
            state.watcher = watcher
            state.observation = observation
            state.privacy = privacy
            if privacy == nil { state.remember = true }
            return !state.stopped
        }
        guard kept else {
            watcher?.stop()
            observation.cancel()
            return
        }
        queue.async {
            self.state.withLock { $0.apps = self.applications.applications }
            self.reload()
            self.republish()
        }
        privacy?.start { [weak self] remember in
            guard let self else { return }
            queue.async {
                self.state.withLock { $0.remember = remember }
                self.republish()
            }
        }
    }

    public func stop() {
        let (watcher, observation, privacy) = state.withLock { state in
            state.stopped = true
            state.publish = nil
            defer {
                state.watcher = nil
                state.observation = nil
                state.privacy = nil
            }
            return (state.watcher, state.observation, state.privacy)
        }
        watcher?.stop()
        observation?.cancel()
        privacy?.stop()
    }

    /// Reads the file again when it changed (another file in the folder changing costs a `stat`).
    /// On failure the bookmarks read before stay.
    private func reload() {
        let stamp = Self.stamp(of: file)
        guard state.withLock({ $0.fileStamp != stamp || stamp == nil }) else { return }
        do {
            let bookmarks = try BookmarkFile.read(path: file, limits: settings.fileLimits) ?? []
            state.withLock {
                $0.bookmarks = bookmarks
                $0.fileStamp = stamp
            }
        } catch {
            settings.log(.warning, "refused \(error); the recent documents read before stay")
            state.withLock { $0.fileStamp = stamp }
        }
    }

    private static func stamp(of path: String) -> [Int]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [Int(info.st_dev), Int(info.st_ino), Int(info.st_size), Int(info.st_mtim.tv_sec),
                Int(info.st_mtim.tv_nsec), Int(info.st_ctim.tv_sec), Int(info.st_ctim.tv_nsec)]
    }

    /// Matches and publishes, when the set differs from the last one published.
    private func republish() {
        let (bookmarks, apps, remember, stopped) = state.withLock { ($0.bookmarks, $0.apps, $0.remember, $0.stopped) }
        guard !stopped, let remember else { return }
        let provided = remember ? providedApps(bookmarks: bookmarks, apps: apps) : []
        let publish = state.withLock { state -> (@Sendable ([ProvidedApp]) -> Void)? in
            guard !state.stopped, state.published != provided else { return nil }
            state.published = provided
            return state.publish
        }
        publish?(provided)
    }

    /// The apps with recent documents, by app id.
    func providedApps(bookmarks: [Bookmark], apps: [String: InstalledApplication]) -> [ProvidedApp] {
        // No file, or an empty one: no documents, and no matcher of every app's program to make.
        guard !bookmarks.isEmpty else { return [] }
        let matcher = RecentDocumentMatcher(applications: apps)
        let documents = matcher.documents(bookmarks, limit: limit) { bookmark in
            guard bookmark.href.utf8.count <= 16 * 1024, let path = FileURI.path(of: bookmark.href) else { return false }
            return FileURI.exists(path)
        }
        return documents.keys.sorted().compactMap { appID in
            guard let app = apps[appID], let documents = documents[appID] else { return nil }
            let items = documents.compactMap { item(for: $0.bookmark) }
            return items.isEmpty
                ? nil : ProvidedApp(appID: appID, desktopID: app.desktopID, name: app.name, icon: app.icon, items: items)
        }
    }

    /// A document as an item: its file's name, its folder (home as `~`), its type's icon.
    func item(for bookmark: Bookmark) -> ProvidedItem? {
        guard let path = FileURI.path(of: bookmark.href) else { return nil }
        let name = RecentDocumentText.displayName(of: path)
        let folder = FolderWatcher.Watches.parentFolder(of: path) ?? "/"
        return ProvidedItem(
            id: RecentDocumentText.itemID(for: bookmark.href), type: Self.itemType,
            title: LocalizedText(RecentDocumentText.bounded(name, ItemLimits.maximumTitleBytes)),
            subtitle: LocalizedText(RecentDocumentText.bounded(
                RecentDocumentText.tildeFolder(folder, home: home), ItemLimits.maximumSubtitleBytes)),
            icon: icons.icon(for: bookmark.mimeType), userInfo: ["uri": .string(bookmark.href)], isStatic: false)
    }

    public func perform(_ request: ProvidedPerform, completion: @escaping @Sendable (ProvidedOutcome) -> Void) {
        let uri: String
        if case .string(let given)? = request.item.userInfo["uri"] { uri = given } else { uri = request.item.id }
        guard let app = applications.applications[request.appID] else {
            completion(.failed("\(RecentDocumentText.shown(request.appID)) is not an installed application"))
            return
        }
        guard let path = FileURI.path(of: uri) else {
            completion(.failed("\(RecentDocumentText.shown(uri)) is not a local file"))
            return
        }
        guard FileURI.exists(path) else {
            completion(.failed(
                "\(RecentDocumentText.displayName(of: path)) was deleted (\(RecentDocumentText.shown(RecentDocumentText.tildeFolder(path, home: home))))"))
            return
        }
        guard app.dbusActivatable || ExecFieldCodes.takesFiles(app.exec ?? "") else {
            completion(.failed("\(app.name.value) does not open files (its Exec has no %f, %F, %u or %U)"))
            return
        }
        launcher.launch(app, action: nil, uris: [uri], context: request.launch, completion: completion)
    }
}

/// Whether an `Exec` value has a document field code (`%f %F %u %U`; `%%` is a percent).
enum ExecFieldCodes {
    static func takesFiles(_ exec: String) -> Bool {
        var percent = false
        for byte in exec.utf8 {
            if percent {
                if byte == UInt8(ascii: "f") || byte == UInt8(ascii: "F") || byte == UInt8(ascii: "u")
                    || byte == UInt8(ascii: "U") { return true }
                percent = false
            } else if byte == UInt8(ascii: "%") {
                percent = true
            }
        }
        return false
    }
}

/// The texts of a recent-document item.
enum RecentDocumentText {
    /// The file's name: its last path component.
    static func displayName(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// `folder` with the home folder shown as `~`.
    static func tildeFolder(_ folder: String, home: String?) -> String {
        guard let home, home != "/" else { return folder }
        let trimmedHome = home.hasSuffix("/") ? String(home.dropLast()) : home
        if folder == trimmedHome { return "~" }
        if folder.hasPrefix(trimmedHome + "/") { return "~" + folder.dropFirst(trimmedHome.utf8.count) }
        return folder
    }

    /// The URI when it fits an item id; else its start and a hash of the whole, so the id stays
    /// bounded, unique in practice and stable.
    static func itemID(for uri: String) -> String {
        guard uri.utf8.count > ItemLimits.maximumIDBytes else { return uri }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in uri.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        let hex = String(hash, radix: 16)
        let suffix = "#" + String(repeating: "0", count: 16 - hex.count) + hex
        return bounded(uri, ItemLimits.maximumIDBytes - suffix.utf8.count, ellipsis: false) + suffix
    }

    /// `text` cut at a character boundary to at most `bytes` UTF-8 bytes, with "…" when cut.
    static func bounded(_ text: String, _ bytes: Int, ellipsis: Bool = true) -> String {
        guard text.utf8.count > bytes else { return text }
        let room = ellipsis ? bytes - 3 : bytes
        var out = ""
        var used = 0
        for character in text {
            let size = character.utf8.count
            guard used + size <= room else { break }
            out.append(character)
            used += size
        }
        return ellipsis ? out + "…" : out
    }

    /// At most 200 bytes of a value, for a message.
    static func shown(_ text: String) -> String { bounded(text, 200) }
}
