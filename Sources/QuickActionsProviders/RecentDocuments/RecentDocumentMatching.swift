import QuickActionsProviding

/// Which installed application a bookmark belongs to (issue 33 §4): one of its
/// `bookmark:application` elements has an `exec` whose program equals the program of the
/// entry's `Exec` or its desktop id, or a `name` equal to the entry's untranslated `Name`.
/// Nothing else attributes a bookmark (no MIME type guess), so a private bookmark reaches only
/// the applications it names.
public struct RecentDocumentMatcher: Sendable {
    /// Programs that only start another one (`flatpak run …`, `env …`, an interpreter): an
    /// entry whose `Exec` starts with one of them is matched by desktop id and name alone, or
    /// every Flatpak app would claim every other one's documents.
    public static let wrapperPrograms: Set<String> = [
        "env", "sh", "bash", "dash", "zsh", "flatpak", "snap", "python", "python3", "perl", "ruby", "java",
        "gjs", "node", "wine", "xdg-open", "gio", "sudo", "pkexec", "exec",
    ]

    private var byProgram: [String: [String]] = [:]
    private var byName: [String: [String]] = [:]

    /// Indexes `applications` (by app id) for matching.
    public init(applications: [String: InstalledApplication]) {
        for (appID, app) in applications {
            var keys: Set<String> = [appID]
            if let program = app.program, !Self.wrapperPrograms.contains(program) { keys.insert(program) }
            for key in keys { byProgram[key, default: []].append(appID) }
            if !app.name.value.isEmpty { byName[app.name.value, default: []].append(appID) }
        }
    }

    /// The app ids `application` names, each at most once.
    public func appIDs(for application: BookmarkApplication) -> Set<String> {
        var found = Set<String>()
        if let program = Self.program(ofBookmarkExec: application.exec), let ids = byProgram[program] {
            found.formUnion(ids)
        }
        if let ids = byName[application.name] { found.formUnion(ids) }
        return found
    }

    /// The program a bookmark's `exec` runs, as a file name without its folder.
    ///
    /// GLib stores the command line shell-quoted as one word (`'gedit %u'`), so when the first
    /// word is the whole value and holds a space, its own first word is the program. A plain
    /// command line (`gedit %u`, `"/opt/My App/app" %u`) is read with the same quoting rules
    /// (single quotes, double quotes with backslash escapes, backslashes).
    public static func program(ofBookmarkExec exec: String) -> String? {
        guard case (var word, let whole)? = firstWord(of: Substring(exec.prefix(4096))) else { return nil }
        if whole, word.contains(where: { $0 == " " || $0 == "\t" }) {
            // The quoted command line follows the Exec rules: only double quotes quote.
            guard let (inner, _) = firstWord(of: Substring(word), singleQuotes: false) else { return nil }
            word = inner
        }
        let name = word.split(separator: "/").last.map(String.init) ?? word
        return name.isEmpty ? nil : name
    }

    /// The first shell word of `text` and whether it is all of it (bar white space); with
    /// `singleQuotes` false, an apostrophe is an ordinary character.
    static func firstWord(of text: Substring, singleQuotes: Bool = true) -> (String, Bool)? {
        var word = ""
        var started = false
        var quote: Character?
        var escaped = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            index = text.index(after: index)
            if escaped {
                word.append(character)
                escaped = false
                continue
            }
            switch quote {
            case "'"?:
                if character == "'" { quote = nil } else { word.append(character) }
            case "\""?:
                if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    quote = nil
                } else {
                    word.append(character)
                }
            default:
                if character == " " || character == "\t" || character == "\n" {
                    if started {
                        let rest = text[index...]
                        return (word, rest.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\n" })
                    }
                } else if (character == "'" && singleQuotes) || character == "\"" {
                    quote = character
                    started = true
                } else if character == "\\" {
                    escaped = true
                    started = true
                } else {
                    word.append(character)
                    started = true
                }
            }
        }
        guard started, quote == nil, !escaped else { return nil }
        return (word, true)
    }
}

/// A bookmark as one application's recent document: when that application last used it.
public struct RecentDocument: Sendable, Hashable {
    public var bookmark: Bookmark
    /// The latest `modified` of the bookmark's application elements that name this app
    /// (else the bookmark's own `modified`, `visited`, `added`).
    public var used: Double

    public init(bookmark: Bookmark, used: Double) {
        self.bookmark = bookmark
        self.used = used
    }
}

extension RecentDocumentMatcher {
    /// Every app's documents, most recent first, at most `limit` each, keeping only those
    /// `keep` accepts (a local file that exists); `keep` is asked in that order and no more
    /// than needed.
    public func documents(
        _ bookmarks: [Bookmark], limit: Int, keep: (Bookmark) -> Bool
    ) -> [String: [RecentDocument]] {
        var candidates: [String: [RecentDocument]] = [:]
        for bookmark in bookmarks {
            var used: [String: Double] = [:]
            for application in bookmark.applications {
                let when = application.modified ?? bookmark.modified ?? bookmark.visited ?? bookmark.added ?? 0
                for appID in appIDs(for: application) { used[appID] = max(used[appID] ?? -.infinity, when) }
            }
            for (appID, when) in used { candidates[appID, default: []].append(RecentDocument(bookmark: bookmark, used: when)) }
        }
        var kept: [String: Bool] = [:]
        var result: [String: [RecentDocument]] = [:]
        for (appID, documents) in candidates {
            // Newest first; ties by URI so the order is stable across reads.
            let sorted = documents.sorted { $0.used != $1.used ? $0.used > $1.used : $0.bookmark.href < $1.bookmark.href }
            var chosen: [RecentDocument] = []
            for document in sorted {
                guard chosen.count < limit else { break }
                let href = document.bookmark.href
                let keepIt = kept[href] ?? {
                    let answer = keep(document.bookmark)
                    kept[href] = answer
                    return answer
                }()
                if keepIt { chosen.append(document) }
            }
            if !chosen.isEmpty { result[appID] = chosen }
        }
        return result
    }
}
