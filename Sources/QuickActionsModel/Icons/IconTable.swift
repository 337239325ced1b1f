/// The one table from iOS icon names to freedesktop icon names.
///
/// Keys are the 29 `UIApplicationShortcutIconType…` names and common SF Symbol names; values are
/// Icon Naming Specification names where one fits (spec), else Adwaita's own names (Adwaita).
/// Every value exists in Debian's adwaita-icon-theme 43, most of them as `NAME-symbolic`, which
/// GTK and Qt find when asked for `NAME`. A test checks each against the installed theme.
///
/// | iOS name                                   | freedesktop name        | from     |
/// |--------------------------------------------|-------------------------|----------|
/// | UIApplicationShortcutIconTypeCompose       | document-edit           | Adwaita  |
/// | UIApplicationShortcutIconTypePlay          | media-playback-start    | spec     |
/// | UIApplicationShortcutIconTypePause         | media-playback-pause    | spec     |
/// | UIApplicationShortcutIconTypeAdd           | list-add                | spec     |
/// | UIApplicationShortcutIconTypeLocation      | find-location           | Adwaita  |
/// | UIApplicationShortcutIconTypeSearch        | system-search           | spec     |
/// | UIApplicationShortcutIconTypeShare         | document-send           | spec     |
/// | UIApplicationShortcutIconTypeProhibit      | action-unavailable      | Adwaita  |
/// | UIApplicationShortcutIconTypeContact       | avatar-default          | Adwaita  |
/// | UIApplicationShortcutIconTypeHome          | go-home                 | spec     |
/// | UIApplicationShortcutIconTypeMarkLocation  | mark-location           | Adwaita  |
/// | UIApplicationShortcutIconTypeFavorite      | starred                 | Adwaita  |
/// | UIApplicationShortcutIconTypeLove          | emblem-favorite         | spec     |
/// | UIApplicationShortcutIconTypeCloud         | weather-overcast        | spec     |
/// | UIApplicationShortcutIconTypeInvitation    | appointment-new         | spec     |
/// | UIApplicationShortcutIconTypeConfirmation  | emblem-ok               | Adwaita  |
/// | UIApplicationShortcutIconTypeMail          | mail-unread             | spec     |
/// | UIApplicationShortcutIconTypeMessage       | chat-message-new        | Adwaita  |
/// | UIApplicationShortcutIconTypeDate          | x-office-calendar       | spec     |
/// | UIApplicationShortcutIconTypeTime          | appointment-soon        | spec     |
/// | UIApplicationShortcutIconTypeCapturePhoto  | camera-photo            | spec     |
/// | UIApplicationShortcutIconTypeCaptureVideo  | camera-video            | spec     |
/// | UIApplicationShortcutIconTypeTask          | task-due                | spec     |
/// | UIApplicationShortcutIconTypeTaskCompleted | emblem-default          | spec     |
/// | UIApplicationShortcutIconTypeAlarm         | alarm                   | Adwaita  |
/// | UIApplicationShortcutIconTypeBookmark      | user-bookmarks          | spec     |
/// | UIApplicationShortcutIconTypeShuffle       | media-playlist-shuffle  | spec     |
/// | UIApplicationShortcutIconTypeAudio         | audio-x-generic         | spec     |
/// | UIApplicationShortcutIconTypeUpdate        | view-refresh            | spec     |
/// | heart, heart.fill                          | emblem-favorite         | spec     |
/// | star                                       | non-starred             | Adwaita  |
/// | star.fill                                  | starred                 | Adwaita  |
/// | magnifyingglass                            | system-search           | spec     |
/// | square.and.arrow.up                        | document-send           | spec     |
/// | square.and.arrow.down                      | document-save           | spec     |
/// | square.and.pencil, pencil                  | document-edit           | Adwaita  |
/// | play, play.fill                            | media-playback-start    | spec     |
/// | pause, pause.fill                          | media-playback-pause    | spec     |
/// | stop.fill                                  | media-playback-stop     | spec     |
/// | forward.fill                               | media-skip-forward      | spec     |
/// | backward.fill                              | media-skip-backward     | spec     |
/// | plus, plus.circle                          | list-add                | spec     |
/// | xmark                                      | window-close            | spec     |
/// | checkmark                                  | object-select           | Adwaita  |
/// | checkmark.circle                           | emblem-ok               | Adwaita  |
/// | person, person.crop.circle                 | avatar-default          | Adwaita  |
/// | house                                      | go-home                 | spec     |
/// | envelope                                   | mail-unread             | spec     |
/// | message                                    | chat-message-new        | Adwaita  |
/// | phone                                      | call-start              | spec     |
/// | calendar                                   | x-office-calendar       | spec     |
/// | clock                                      | appointment-soon        | spec     |
/// | alarm                                      | alarm                   | Adwaita  |
/// | camera                                     | camera-photo            | spec     |
/// | video                                      | camera-video            | spec     |
/// | mic                                        | audio-input-microphone  | spec     |
/// | bookmark                                   | user-bookmarks          | spec     |
/// | shuffle                                    | media-playlist-shuffle  | spec     |
/// | music.note                                 | audio-x-generic         | spec     |
/// | arrow.clockwise                            | view-refresh            | spec     |
/// | location                                   | find-location           | Adwaita  |
/// | trash                                      | user-trash              | spec     |
/// | gear                                       | emblem-system           | spec     |
/// | cloud                                      | weather-overcast        | spec     |
/// | doc                                        | x-office-document       | spec     |
/// | folder                                     | folder                  | spec     |
/// | photo                                      | image-x-generic         | spec     |
///
/// A symbol name without an entry passes through unchanged, as a freedesktop icon name.
public enum IconTable {
    /// The rows of the table above, in its order; `entries` is built from them.
    public static let rows: [(ios: String, freedesktop: String)] = [
        (ShortcutIconType.compose.rawValue, "document-edit"),
        (ShortcutIconType.play.rawValue, "media-playback-start"),
        (ShortcutIconType.pause.rawValue, "media-playback-pause"),
        (ShortcutIconType.add.rawValue, "list-add"),
        (ShortcutIconType.location.rawValue, "find-location"),
        (ShortcutIconType.search.rawValue, "system-search"),
        (ShortcutIconType.share.rawValue, "document-send"),
        (ShortcutIconType.prohibit.rawValue, "action-unavailable"),
        (ShortcutIconType.contact.rawValue, "avatar-default"),
        (ShortcutIconType.home.rawValue, "go-home"),
        (ShortcutIconType.markLocation.rawValue, "mark-location"),
        (ShortcutIconType.favorite.rawValue, "starred"),
        (ShortcutIconType.love.rawValue, "emblem-favorite"),
        (ShortcutIconType.cloud.rawValue, "weather-overcast"),
        (ShortcutIconType.invitation.rawValue, "appointment-new"),
        (ShortcutIconType.confirmation.rawValue, "emblem-ok"),
        (ShortcutIconType.mail.rawValue, "mail-unread"),
        (ShortcutIconType.message.rawValue, "chat-message-new"),
        (ShortcutIconType.date.rawValue, "x-office-calendar"),
        (ShortcutIconType.time.rawValue, "appointment-soon"),
        (ShortcutIconType.capturePhoto.rawValue, "camera-photo"),
        (ShortcutIconType.captureVideo.rawValue, "camera-video"),
        (ShortcutIconType.task.rawValue, "task-due"),
        (ShortcutIconType.taskCompleted.rawValue, "emblem-default"),
        (ShortcutIconType.alarm.rawValue, "alarm"),
        (ShortcutIconType.bookmark.rawValue, "user-bookmarks"),
        (ShortcutIconType.shuffle.rawValue, "media-playlist-shuffle"),
        (ShortcutIconType.audio.rawValue, "audio-x-generic"),
        (ShortcutIconType.update.rawValue, "view-refresh"),
        ("heart", "emblem-favorite"),
        ("heart.fill", "emblem-favorite"),
        ("star", "non-starred"),
        ("star.fill", "starred"),
        ("magnifyingglass", "system-search"),
        ("square.and.arrow.up", "document-send"),
        ("square.and.arrow.down", "document-save"),
        ("square.and.pencil", "document-edit"),
        ("pencil", "document-edit"),
        ("play", "media-playback-start"),
        ("play.fill", "media-playback-start"),
        ("pause", "media-playback-pause"),
        ("pause.fill", "media-playback-pause"),
        ("stop.fill", "media-playback-stop"),
        ("forward.fill", "media-skip-forward"),
        ("backward.fill", "media-skip-backward"),
        ("plus", "list-add"),
        ("plus.circle", "list-add"),
        ("xmark", "window-close"),
        ("checkmark", "object-select"),
        ("checkmark.circle", "emblem-ok"),
        ("person", "avatar-default"),
        ("person.crop.circle", "avatar-default"),
        ("house", "go-home"),
        ("envelope", "mail-unread"),
        ("message", "chat-message-new"),
        ("phone", "call-start"),
        ("calendar", "x-office-calendar"),
        ("clock", "appointment-soon"),
        ("alarm", "alarm"),
        ("camera", "camera-photo"),
        ("video", "camera-video"),
        ("mic", "audio-input-microphone"),
        ("bookmark", "user-bookmarks"),
        ("shuffle", "media-playlist-shuffle"),
        ("music.note", "audio-x-generic"),
        ("arrow.clockwise", "view-refresh"),
        ("location", "find-location"),
        ("trash", "user-trash"),
        ("gear", "emblem-system"),
        ("cloud", "weather-overcast"),
        ("doc", "x-office-document"),
        ("folder", "folder"),
        ("photo", "image-x-generic"),
    ]

    /// The table as a dictionary; the first row wins should a key ever repeat (a test forbids it).
    public static let entries: [String: String] = Dictionary(
        rows.map { ($0.ios, $0.freedesktop) }, uniquingKeysWith: { first, _ in first }
    )

    /// The freedesktop name for a system icon type.
    public static func name(for type: ShortcutIconType) -> String {
        // Every case has a row (tested); "image-missing" only guards against a future case.
        entries[type.rawValue] ?? "image-missing"
    }

    /// The freedesktop name for a symbol name: its table entry, else the name unchanged.
    public static func name(forSymbol symbol: String) -> String {
        entries[symbol] ?? symbol
    }
}
