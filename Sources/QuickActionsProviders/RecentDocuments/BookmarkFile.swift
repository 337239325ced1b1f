import Glibc

/// A Desktop Bookmark file (`recently-used.xbel`) read as the freedesktop specification and
/// GLib's GBookmarkFile write it, bounded: the file's size is checked with `fstat` before a
/// byte is read, and fields, applications, groups and bookmarks are capped.
public enum BookmarkFile {
    /// The caps a file is read under. Past any of them the whole file is refused.
    public struct Limits: Sendable, Hashable {
        /// The largest file read (GTK keeps the file well under a megabyte).
        public var maximumFileBytes: Int
        public var maximumBookmarks: Int
        /// Any attribute value or element text, raw.
        public var maximumFieldBytes: Int
        /// `bookmark:application` elements of one bookmark, and `bookmark:group`s.
        public var maximumApplicationsPerBookmark: Int
        public var maximumGroupsPerBookmark: Int

        public init(
            maximumFileBytes: Int = 16 * 1024 * 1024, maximumBookmarks: Int = 100_000,
            maximumFieldBytes: Int = 64 * 1024, maximumApplicationsPerBookmark: Int = 256,
            maximumGroupsPerBookmark: Int = 256
        ) {
            self.maximumFileBytes = maximumFileBytes
            self.maximumBookmarks = maximumBookmarks
            self.maximumFieldBytes = maximumFieldBytes
            self.maximumApplicationsPerBookmark = maximumApplicationsPerBookmark
            self.maximumGroupsPerBookmark = maximumGroupsPerBookmark
        }
    }

    /// Why a file was refused; the description names the file (when read from one) and the
    /// position or the cap.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The file, or nil for bytes parsed directly.
        public var path: String?
        public var reason: String

        public var description: String { path.map { "\($0): \(reason)" } ?? reason }
    }

    /// The namespaces the specification names; prefixes are matched through the file's
    /// `xmlns:` declarations, and `bookmark:` / `mime:` are read as these when undeclared.
    static let bookmarkNamespace = "http://www.freedesktop.org/standards/desktop-bookmarks"
    static let mimeNamespace = "http://www.freedesktop.org/standards/shared-mime-info"
    /// The only `<metadata owner>` whose content is read.
    static let freedesktopOwner = "http://freedesktop.org"

    /// Reads the file at `path`. A missing file is nil (no bookmarks), not an error.
    public static func read(path: String, limits: Limits = Limits()) throws(Failure) -> [Bookmark]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw Failure(path: path, reason: "cannot be opened: \(String(cString: strerror(code)))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw Failure(path: path, reason: "cannot be examined: \(String(cString: strerror(errno)))")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw Failure(path: path, reason: "is not a regular file") }
        let size = Int(info.st_size)
        guard size <= limits.maximumFileBytes else {
            throw Failure(path: path, reason: "is \(size) bytes, more than the \(limits.maximumFileBytes) read")
        }
        // One byte more than fstat said, to notice a file that grew meanwhile.
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(fd, buffer.baseAddress.map { $0 + filled }, buffer.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(path: path, reason: "cannot be read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            filled += count
        }
        guard filled <= size else { throw Failure(path: path, reason: "grew while it was read; read again later") }
        bytes.removeLast(bytes.count - filled)
        do {
            return try parse(bytes, limits: limits)
        } catch {
            throw Failure(path: path, reason: error.reason)
        }
    }

    /// Parses a whole file's bytes.
    public static func parse(_ bytes: [UInt8], limits: Limits = Limits()) throws(Failure) -> [Bookmark] {
        guard bytes.count <= limits.maximumFileBytes else {
            throw Failure(path: nil, reason: "is \(bytes.count) bytes, more than the \(limits.maximumFileBytes) read")
        }
        let result: Result<[Bookmark], XMLScanError> = bytes.withUnsafeBufferPointer { buffer in
            var reader = XBELReader(
                scanner: XMLScanner(buffer, limits: XMLScanner.Limits(maximumValueBytes: limits.maximumFieldBytes)),
                limits: limits)
            do throws(XMLScanError) {
                return .success(try reader.read())
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let bookmarks): return bookmarks
        case .failure(let error): throw Failure(path: nil, reason: error.description)
        }
    }
}

extension XMLScanner {
    /// An attribute holding an ISO 8601 time, read in place when it has no references.
    func time(_ range: Range<Int>) throws(XMLScanError) -> Double? {
        let slice = UnsafeBufferPointer(rebasing: bytes[range])
        if slice.contains(UInt8(ascii: "&")) { return ISO8601Time.seconds(try decoded(range)) }
        return ISO8601Time.seconds(utf8: slice)
    }
}

/// Walks the scanner's tokens and builds the bookmarks.
private struct XBELReader {
    var scanner: XMLScanner
    let limits: BookmarkFile.Limits

    /// What an open element is, as far as the reader cares.
    enum Element {
        case xbel, bookmark, title, info, metadata(freedesktop: Bool), mimeType, groups, group, applications
        case application, privateFlag, other
    }

    /// Prefix → namespace, from every `xmlns:` seen (not scoped: bookmark files declare them
    /// once, on `<xbel>`).
    var namespaces: [String: String] = [:]
    var stack: [Element] = []
    var bookmarks: [Bookmark] = []
    var current: Bookmark?
    var text = ""

    init(scanner: XMLScanner, limits: BookmarkFile.Limits) {
        self.scanner = scanner
        self.limits = limits
        stack.reserveCapacity(16)
    }

    mutating func read() throws(XMLScanError) -> [Bookmark] {
        while let token = try scanner.next() {
            switch token {
            case .start(let name, let selfClosing):
                let element = try start(name)
                if selfClosing {
                    try end(element, name)
                } else {
                    stack.append(element)
                }
            case .end(let name):
                let element = stack.popLast() ?? .other
                try end(element, name)
            case .text(let range, let cdata):
                switch stack.last {
                case .title?, .group?:
                    let piece = cdata ? scanner.text(range) : try scanner.decoded(range)
                    guard text.utf8.count + piece.utf8.count <= limits.maximumFieldBytes else {
                        throw scanner.error("text longer than \(limits.maximumFieldBytes) bytes", at: range.lowerBound)
                    }
                    text += piece
                default:
                    break
                }
            }
        }
        guard let root = rootSeen, root else {
            throw XMLScanError(reason: "the root element is not <xbel>", offset: 0, line: 1, column: 1)
        }
        return bookmarks
    }

    var rootSeen: Bool?

    private mutating func start(_ name: Range<Int>) throws(XMLScanError) -> Element {
        for attribute in scanner.attributes {
            let attributeName = attribute.name
            if attributeName.count > 6, scanner.equals(attributeName.lowerBound..<(attributeName.lowerBound + 6), "xmlns:") {
                let prefix = scanner.text((attributeName.lowerBound + 6)..<attributeName.upperBound)
                declared(prefix: prefix, namespace: try scanner.decoded(attribute.value))
            }
        }
        let parent = stack.last
        if parent == nil {
            rootSeen = scanner.equals(name, "xbel")
            return rootSeen == true ? .xbel : .other
        }
        text = ""
        switch parent {
        case .xbel?:
            guard scanner.equals(name, "bookmark") else { return .other }
            guard bookmarks.count < limits.maximumBookmarks else {
                throw scanner.error("more than \(limits.maximumBookmarks) bookmarks", at: name.lowerBound)
            }
            var bookmark = Bookmark(href: "")
            for attribute in scanner.attributes {
                if scanner.equals(attribute.name, "href") {
                    bookmark.href = try scanner.decoded(attribute.value)
                } else if scanner.equals(attribute.name, "added") {
                    bookmark.added = try scanner.time(attribute.value)
                } else if scanner.equals(attribute.name, "modified") {
                    bookmark.modified = try scanner.time(attribute.value)
                } else if scanner.equals(attribute.name, "visited") {
                    bookmark.visited = try scanner.time(attribute.value)
                }
            }
            guard !bookmark.href.isEmpty else { throw scanner.error("a bookmark without href", at: name.lowerBound) }
            current = bookmark
            return .bookmark
        case .bookmark?:
            if scanner.equals(name, "title") { return .title }
            if scanner.equals(name, "info") { return .info }
            return .other
        case .info?:
            guard scanner.equals(name, "metadata") else { return .other }
            var owner = ""
            for attribute in scanner.attributes where scanner.equals(attribute.name, "owner") {
                owner = try scanner.decoded(attribute.value)
            }
            return .metadata(freedesktop: owner == BookmarkFile.freedesktopOwner)
        case .metadata(freedesktop: true)?:
            if isElement(name, .mime, "mime-type") {
                for attribute in scanner.attributes where scanner.equals(attribute.name, "type") {
                    current?.mimeType = try scanner.decoded(attribute.value)
                }
                return .mimeType
            }
            if isElement(name, .bookmark, "groups") { return .groups }
            if isElement(name, .bookmark, "applications") { return .applications }
            if isElement(name, .bookmark, "private") {
                current?.isPrivate = true
                return .privateFlag
            }
            return .other
        case .groups?:
            return isElement(name, .bookmark, "group") ? .group : .other
        case .applications?:
            guard isElement(name, .bookmark, "application") else { return .other }
            guard (current?.applications.count ?? 0) < limits.maximumApplicationsPerBookmark else {
                throw scanner.error(
                    "a bookmark with more than \(limits.maximumApplicationsPerBookmark) applications", at: name.lowerBound)
            }
            var application = BookmarkApplication(name: "", exec: "")
            var timestamp: Double?
            for attribute in scanner.attributes {
                if scanner.equals(attribute.name, "name") {
                    application.name = try scanner.decoded(attribute.value)
                } else if scanner.equals(attribute.name, "exec") {
                    application.exec = try scanner.decoded(attribute.value)
                } else if scanner.equals(attribute.name, "modified") {
                    application.modified = try scanner.time(attribute.value)
                } else if scanner.equals(attribute.name, "timestamp") {
                    timestamp = Double(try scanner.decoded(attribute.value).prefix(24))
                } else if scanner.equals(attribute.name, "count") {
                    application.count = Int(try scanner.decoded(attribute.value).prefix(24)) ?? 1
                }
            }
            if application.modified == nil, let timestamp, timestamp.isFinite { application.modified = timestamp }
            // GLib skips an application without a name; so does this reader.
            if !application.name.isEmpty { current?.applications.append(application) }
            return .application
        default:
            return .other
        }
    }

    private mutating func end(_ element: Element, _ name: Range<Int>) throws(XMLScanError) {
        switch element {
        case .bookmark:
            if let current { bookmarks.append(current) }
            current = nil
        case .title:
            current?.title = text
        case .group:
            guard (current?.groups.count ?? 0) < limits.maximumGroupsPerBookmark else {
                throw scanner.error("a bookmark in more than \(limits.maximumGroupsPerBookmark) groups", at: name.lowerBound)
            }
            current?.groups.append(text)
        default:
            break
        }
        text = ""
    }

    /// Whether `name` is `prefix:local` for the prefix bound to `namespace` (`bookmark:` or
    /// `mime:` when the file declares none for it), compared byte by byte.
    private func isElement(_ name: Range<Int>, _ namespace: Namespace, _ local: StaticString) -> Bool {
        let prefix = namespace == .bookmark ? bookmarkPrefix : mimePrefix
        let localCount = local.utf8CodeUnitCount
        guard name.count == prefix.count + 1 + localCount,
              scanner.bytes[name.lowerBound + prefix.count] == UInt8(ascii: ":"),
              scanner.equals((name.upperBound - localCount)..<name.upperBound, local)
        else { return false }
        for (offset, byte) in prefix.enumerated() where scanner.bytes[name.lowerBound + offset] != byte { return false }
        return true
    }

    enum Namespace { case bookmark, mime }
    var bookmarkPrefix = Array("bookmark".utf8)
    var mimePrefix = Array("mime".utf8)

    /// Rebinds the prefixes after an `xmlns:` declaration.
    private mutating func declared(prefix: String, namespace: String) {
        namespaces[prefix] = namespace
        if namespace == BookmarkFile.bookmarkNamespace { bookmarkPrefix = Array(prefix.utf8) }
        if namespace == BookmarkFile.mimeNamespace { mimePrefix = Array(prefix.utf8) }
    }
}
