/*
 * quickactions_plugin.h — the QuickActions plugin ABI, version 1.3.
 *
 * This header is the single source of truth for the contract between the
 * QuickActions broker (the host) and an application's plugin (a shared
 * library inside the app's bundle). It is C99 and is used unchanged from C,
 * from Swift (the QuickActionsSDK module wraps it) and from any language
 * with a C FFI.
 *
 * The words MUST, MUST NOT, MAY and SHOULD are used as in RFC 2119.
 *
 * ── Overview ────────────────────────────────────────────────────────────
 *
 *   1. The host opens the library with dlopen(RTLD_NOW | RTLD_LOCAL) and
 *      looks up one exported symbol, QA_PLUGIN_ENTRY_SYMBOL
 *      ("quickactions_plugin_entry"), a function of type qa_plugin_entry_fn.
 *   2. It calls the entry once; the entry returns the plugin's descriptor
 *      (qa_plugin), which carries its struct size and ABI version.
 *   3. The host refuses a descriptor whose abi_major differs from the host's.
 *      Any minor of its major loads, a newer one included (see "Evolution").
 *      It then calls init with its own function table (qa_host), which
 *      carries the host's own ABI version and its limits, then launch /
 *      perform / will_resign as the broker receives requests.
 *
 * ── Evolution ───────────────────────────────────────────────────────────
 *
 *   - Fields are only ever appended to qa_plugin, qa_host, qa_limits,
 *     qa_item and qa_request, and each starts with its struct_size. A minor
 *     version adds fields; a major version may change anything. Only the
 *     offsets of existing fields are promised, never a struct's total size.
 *   - Nobody reads past a struct's struct_size: a reader treats every field
 *     past it as absent (NULL / zero), and ignores whatever a larger struct
 *     carries beyond the fields it knows. So both directions work within a
 *     major version:
 *   - An older plugin on a newer host: the host reads the plugin's
 *     descriptor and items only as far as their struct_size, so the fields
 *     a newer minor appended read as absent. A struct_size too small for
 *     ABI 1.0's fields is refused, naming the value.
 *   - A newer plugin on an older host (of 1.2 or later; hosts before 1.2
 *     refused it, see QA_PLUGIN_DESCRIPTOR_FOR_MINOR): it loads. The host
 *     reads the descriptor and items only as far as the fields of its own
 *     minor and ignores the rest, so a field appended after the host's
 *     minor has no effect. qa_host.abi_major / abi_minor is the host's own version, and
 *     every struct the host hands over (qa_host, qa_limits, qa_request,
 *     qa_item) is as large as the host knows it: a plugin reading a field
 *     newer than the host's minor MUST check that the struct_size covers it
 *     first (QA_HAS_FIELD, QA_HOST_HAS). Fields up to the plugin's own minor
 *     need no check when the host's minor is at least the plugin's.
 *   - qa_value, qa_entry, qa_bytes, qa_array and qa_dictionary are laid out
 *     in arrays and are therefore frozen for a major version.
 *
 * ── Threads ─────────────────────────────────────────────────────────────
 *
 *   - The host gives each plugin a serial queue of its own. init, launch,
 *     perform and will_resign are called on it, one at a time, never
 *     concurrently with each other; not necessarily on the same OS thread
 *     each time. Plugin code reached only from these callbacks therefore
 *     need not be thread-safe.
 *   - While the queue is idle, the host MAY run a call on the thread that
 *     received the request, still as a call on the plugin's queue: it saves
 *     a thread switch per call.
 *   - Callbacks MUST return promptly: long work belongs on the plugin's own
 *     threads, with the completion called when it is done. A callback that
 *     blocks holds up this plugin's app. A plugin whose call once ran for
 *     more than 10 ms on the receiving thread has every later call run on a
 *     thread of its queue's own.
 *   - By default the host is a process of the app's own (quickactions-host),
 *     so a crash or a block costs only this app; a user may choose to run a
 *     trusted plugin inside the broker instead.
 *   - Every function in qa_host is thread-safe: it MAY be called from any
 *     thread, including from inside a callback, at any time from the start
 *     of init on.
 *
 * ── Memory ──────────────────────────────────────────────────────────────
 *
 *   - Every pointer the host passes to a callback (the request and all it
 *     points to, error buffers) is valid only during that call. A plugin
 *     MUST copy what it keeps.
 *   - Exceptions, valid from init until the process exits: the qa_host
 *     table, its context, and the strings returned by app_id and
 *     data_directory.
 *   - Every pointer a plugin passes to a host function (items, values,
 *     messages) needs to stay valid only until that function returns: the
 *     host copies what it keeps before returning.
 *   - The descriptor returned by the entry MUST stay valid and unchanged
 *     until the process exits.
 *
 * ── Strings ─────────────────────────────────────────────────────────────
 *
 *   Every string is UTF-8 and NUL-terminated. The host rejects items that
 *   carry invalid UTF-8 (QA_STATUS_INVALID); in log lines and completion
 *   messages it replaces invalid sequences with U+FFFD.
 *
 * ── Unloading ───────────────────────────────────────────────────────────
 *
 *   A plugin whose init succeeded is never unloaded: its code stays mapped
 *   until the process exits (unloading Swift code leaves the Swift runtime
 *   with dangling pointers into it). There is therefore no "deinit"
 *   callback: will_resign is where a plugin saves its state. If init fails,
 *   the host MAY dlclose the library as soon as init returns, so a failing
 *   init MUST release what it acquired and MUST NOT leave threads, timers or
 *   callbacks behind. (A library linked by swiftc, C or Swift, registers
 *   itself with the Swift runtime when loaded and is never closed, not even
 *   then.)
 */
#ifndef QUICKACTIONS_PLUGIN_H
#define QUICKACTIONS_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ── Versions and names ─────────────────────────────────────────────── */

/** The ABI major version this header describes. A host refuses a plugin
 *  whose abi_major differs from its own. */
#define QA_ABI_MAJOR 1
/** The ABI minor version this header describes. A host loads a plugin of its
 *  major whatever its minor; one newer than the host's sees the host's own
 *  version in qa_host and only the fields that version has. */
#define QA_ABI_MINOR 3

/** Whether the struct at `pointer` (any struct that starts with struct_size:
 *  qa_host, qa_limits, qa_item, qa_request, qa_plugin) is large enough to
 *  hold `field` of `type`:
 *
 *      if (QA_HAS_FIELD(request->item, qa_item, id)) ... request->item->id ... */
#define QA_HAS_FIELD(pointer, type, field) \
    ((pointer)->struct_size >= offsetof(type, field) + sizeof(((const type *)0)->field))

/** The name of the one symbol a plugin exports. */
#define QA_PLUGIN_ENTRY_SYMBOL "quickactions_plugin_entry"

/* ── Status codes ───────────────────────────────────────────────────── */

/** The result of init and set_dynamic_items. */
typedef int32_t qa_status;

/** Success. */
#define QA_STATUS_OK 0
/** The arguments were malformed (NULL where a value is required, invalid
 *  UTF-8, an unknown kind, a bad struct_size, a value tree past the host's
 *  hard bounds, qa_limits' call_max_*); the error buffer says which value. */
#define QA_STATUS_INVALID 1
/** The arguments were well formed but refused, typically for exceeding the
 *  broker's limits on dynamic items; the error buffer says why. */
#define QA_STATUS_REJECTED 2
/** Generic failure, for init. Any value other than QA_STATUS_OK returned by
 *  init means init failed. */
#define QA_STATUS_FAILED 3

/** The size of the error buffer the host passes to init. A plugin writing
 *  into an error buffer MUST NOT write more than error_size bytes,
 *  including the terminating NUL. */
#define QA_ERROR_BUFFER_SIZE 1024

/* ── User-info values ───────────────────────────────────────────────── */

/** qa_value.kind: which member of qa_value.u is set. Zero is never a valid
 *  kind, so a zero-initialised value is caught. */
#define QA_VALUE_STRING 1     /**< u.string: UTF-8, NUL-terminated, not NULL */
#define QA_VALUE_BOOL 2       /**< u.boolean */
#define QA_VALUE_INT 3        /**< u.integer: a signed 64-bit integer */
#define QA_VALUE_DOUBLE 4     /**< u.real: an IEEE 754 double */
#define QA_VALUE_BYTES 5      /**< u.bytes: raw bytes, not a string */
#define QA_VALUE_ARRAY 6      /**< u.array: ordered values */
#define QA_VALUE_DICTIONARY 7 /**< u.dictionary: string-keyed values */

struct qa_value;
struct qa_entry;

/** Raw bytes. data MAY be NULL only when length is 0. */
typedef struct qa_bytes {
    const uint8_t *data;
    size_t length;
} qa_bytes;

/** An ordered list of values. items MAY be NULL only when count is 0. */
typedef struct qa_array {
    const struct qa_value *items;
    size_t count;
} qa_array;

/** String-keyed values. entries MAY be NULL only when count is 0. Keys MUST
 *  be unique; the host rejects a dictionary with a repeated key. The order
 *  of entries carries no meaning (the host sends them sorted by key). */
typedef struct qa_dictionary {
    const struct qa_entry *entries;
    size_t count;
} qa_dictionary;

/** One value of an item's user info or of a request's arguments: a tagged
 *  union. The kinds map one-to-one to the Swift model's UserInfoValue and
 *  to the D-Bus types s, b, x, d, ay, av and a{sv}, so no type is lost in
 *  either direction.
 *
 *  The host refuses (QA_STATUS_INVALID) a call past its hard bounds
 *  (qa_limits' call_max_*: depth, values, bytes of strings and bytes); the
 *  broker's own, tighter limits (qa_limits' max_*) answer QA_STATUS_REJECTED.
 *  A tree MUST NOT contain cycles (the depth bound stops them). */
typedef struct qa_value {
    int32_t kind; /**< one of QA_VALUE_* */
    union {
        const char *string;
        bool boolean;
        int64_t integer;
        double real;
        qa_bytes bytes;
        qa_array array;
        qa_dictionary dictionary;
    } u;
} qa_value;

/** One dictionary entry. key is UTF-8, NUL-terminated and not NULL. */
typedef struct qa_entry {
    const char *key;
    qa_value value;
} qa_entry;

/* ── Items ──────────────────────────────────────────────────────────── */

/** qa_item.icon_kind: how qa_item.icon is to be read. */
#define QA_ICON_NONE 0   /**< no icon; icon is ignored */
#define QA_ICON_TYPE 1   /**< icon is a UIApplicationShortcutIconType name, e.g.
                              "UIApplicationShortcutIconTypePlay" */
#define QA_ICON_SYMBOL 2 /**< icon is a symbol name, e.g. "heart" */
#define QA_ICON_FILE 3   /**< icon is a file path relative to the bundle root */

/** One quick action, as iOS's UIApplicationShortcutItem.
 *
 *  Set struct_size to sizeof(qa_item) (QA_ITEM_INIT does). The host reads
 *  no field past struct_size, ignores the fields past those of its own
 *  minor, and rejects an item whose struct_size does not cover the fields of
 *  ABI 1.0 (up to and including user_info). An item the host hands over (in
 *  a request, in get_dynamic_items) is the host's qa_item: check
 *  QA_HAS_FIELD before reading a field newer than qa_host.abi_minor.
 *
 *  Identity (ABI 1.1): every item the broker lists has an id, unique within
 *  its app and stable across listings, republishes and restarts; a caller
 *  performs exactly that item by its id. A static item's id is its type. A
 *  dynamic item's id is `id` when the plugin sets it, else one the broker
 *  derives from the type and the user info ("<type>#<16 hex digits>"), so
 *  two items that differ only in their user info have different ids. */
typedef struct qa_item {
    size_t struct_size;
    /** UIApplicationShortcutItemType: the app-defined action identifier.
     *  MUST NOT be NULL. */
    const char *type;
    /** The title. MUST NOT be NULL. In a request it is localised for the
     *  caller's locale. */
    const char *title;
    /** The subtitle, or NULL for none. */
    const char *subtitle;
    /** One of QA_ICON_*. */
    int32_t icon_kind;
    /** The icon, read according to icon_kind; MUST NOT be NULL unless
     *  icon_kind is QA_ICON_NONE. */
    const char *icon;
    /** UIApplicationShortcutItemUserInfo; { NULL, 0 } for none. */
    qa_dictionary user_info;
    /** ABI 1.1. In set_dynamic_items: the item's id, or NULL to have the
     *  broker derive one (see "Identity" above). A given id MUST be unique
     *  among the app's items, static ones included (a static item's id is
     *  its type), non-empty and at most qa_limits.max_id_bytes; a list
     *  that breaks this is refused with QA_STATUS_REJECTED naming both
     *  items. In a request: the
     *  performed item's id, never NULL (the host sets it, whatever the
     *  plugin's ABI minor). */
    const char *id;
} qa_item;

/** Initialiser for a qa_item: `qa_item item = QA_ITEM_INIT;`: struct_size
 *  set, every other field NULL / zero (icon_kind QA_ICON_NONE). */
#define QA_ITEM_INIT { .struct_size = sizeof(qa_item) }

/* ── Requests and completions ───────────────────────────────────────── */

/** The handle of one pending perform. It is a number, not a pointer: a
 *  completion called twice, late or with a made-up handle is ignored and
 *  logged, never a crash. */
typedef uint64_t qa_completion;

/** One perform-action request. Everything in it is valid only during the
 *  launch or perform call it is passed to. */
typedef struct qa_request {
    size_t struct_size;
    /** The item to perform: type, title and subtitle (localised), icon as
     *  declared, user info. Never NULL. */
    const qa_item *item;
    /** The icon as clients see it: a freedesktop icon name or an absolute
     *  file path; NULL when the item has none. */
    const char *resolved_icon;
    /** Caller data (the D-Bus "arguments" option); empty when none. */
    qa_dictionary arguments;
    /** An XDG activation token from the caller, to raise a window with;
     *  NULL when none. */
    const char *activation_token;

    /* ── Appended in ABI 1.3: check QA_HAS_FIELD(request, qa_request, request_id) ── */

    /** ABI 1.3. The identity of this request's content, for a plugin that
     *  keeps what it derived from a request (its decoded form, say) instead
     *  of reading the same request again on every call. Nonzero: every
     *  request with this id, for the life of the process, has exactly the
     *  same content (item with all its fields, resolved_icon, arguments,
     *  activation_token), and no request with other content ever has this
     *  id; the host hands over the same request again for a repeated
     *  Perform of the same item. 0: no identity (the host gives none for
     *  this request): read it afresh. A host older than 1.3 has no such
     *  field: its struct_size does not cover it, so read it only after
     *  QA_HAS_FIELD (a plugin of an older minor never sees it). The id is
     *  the host's, not the broker's, and means nothing in another process.
     *  The memory rules are unchanged: the request is valid only during the
     *  call, even when the same id comes again. */
    uint64_t request_id;
} qa_request;

/* ── The host's function table ──────────────────────────────────────── */

/** qa_host.log levels. */
#define QA_LOG_DEBUG 0
#define QA_LOG_INFO 1
#define QA_LOG_WARNING 2
#define QA_LOG_ERROR 3

/** get_dynamic_items' callback (ABI 1.1): receives the stored items[0..count)
 *  and the `user` pointer the plugin passed. */
typedef void (*qa_items_visitor)(void *user, const qa_item *const *items, size_t count);

/** Whether `host`'s table is large enough to have `field` and fills it. A
 *  plugin checks before using a member newer than the oldest host it means
 *  to run on (an older host loads it, with a smaller table):
 *
 *      if (QA_HOST_HAS(host, get_dynamic_items)) ... */
#define QA_HOST_HAS(host, field) (QA_HAS_FIELD(host, qa_host, field) && (host)->field != NULL)

/** The broker's limits (ABI 1.2), from qa_host.limits: the one place where a
 *  plugin finds them at run time; this header gives no other figures. Sizes
 *  are UTF-8 bytes. Like every struct, it only grows: check QA_HAS_FIELD for
 *  a field newer than qa_host.abi_minor. */
typedef struct qa_limits {
    size_t struct_size;
    /** set_dynamic_items takes at most this many items (today 64); more
     *  answer QA_STATUS_REJECTED. */
    uint32_t max_items;
    /** An item's type: non-empty, at most this many bytes (today 255). */
    uint32_t max_type_bytes;
    /** An item's id, when given: non-empty, at most this many bytes (today 255). */
    uint32_t max_id_bytes;
    /** An item's title: non-empty, at most this many bytes (today 1,024). */
    uint32_t max_title_bytes;
    /** An item's subtitle: at most this many bytes (today 1,024). */
    uint32_t max_subtitle_bytes;
    /** A symbol name or an icon file path: at most this many bytes (today 1,024). */
    uint32_t max_icon_bytes;
    /** An item's user info, in the broker's store encoding: at most this
     *  many bytes (today 65,536). */
    uint32_t max_user_info_bytes;
    /** An item's user info: nested at most this many levels, the dictionary
     *  itself counting as 1, so {"a": 1} is 2 levels (today 18: the deepest
     *  the broker can still send on D-Bus). */
    uint32_t max_user_info_depth;
    /** The host's hard bounds on one call (set_dynamic_items, a request),
     *  past which it answers QA_STATUS_INVALID without looking further:
     *  containers nested deeper than this (today 64) ... */
    uint32_t call_max_depth;
    /** ... more values than this over all items (today 100,000) ... */
    uint32_t call_max_values;
    /** ... more bytes of strings and byte arrays than this (today 16 MiB) ... */
    uint32_t call_max_payload_bytes;
    /** ... or more items than this (today 4,096). */
    uint32_t call_max_items;
} qa_limits;

/** The host's table, handed to init. It and its context stay valid until
 *  the process exits. Every function is thread-safe. The plugin passes
 *  `context` back as the first argument of every call. */
typedef struct qa_host {
    /** sizeof(qa_host) as the host was compiled: members past it are absent. */
    size_t struct_size;
    /** The host's own ABI version, which may be older or newer than the
     *  plugin's: a plugin built for a newer minor learns here which members
     *  and fields this host has. */
    uint32_t abi_major;
    uint32_t abi_minor;
    /** Opaque; pass it back unchanged. */
    void *context;

    /** Replaces the app's whole list of dynamic items with `items[0..count)`,
     *  as assigning UIApplication.shortcutItems does; count 0 removes them
     *  all (items MAY then be NULL). Callable from any thread at any time
     *  from the start of init on. The host copies the items before it
     *  returns. The change is all or nothing: on failure the previous list
     *  stays.
     *
     *  Returns QA_STATUS_OK, QA_STATUS_INVALID (malformed items) or
     *  QA_STATUS_REJECTED (past the broker's limits, see `limits` (ABI 1.2);
     *  ids not unique, see "Identity"). On failure a NUL-terminated
     *  reason naming the item and value at fault is written into `error`
     *  (at most error_size bytes), unless error is NULL or error_size 0. */
    qa_status (*set_dynamic_items)(void *context, const qa_item *const *items, size_t count,
                                   char *error, size_t error_size);

    /** Writes a log line attributed to the plugin. level is one of
     *  QA_LOG_*; message MUST NOT be NULL. */
    void (*log)(void *context, int32_t level, const char *message);

    /** The app id (CFBundleIdentifier). Never NULL. */
    const char *(*app_id)(void *context);

    /** A directory for the plugin's own files, created (mode 0700) on the
     *  first call; the same path every time. NULL if it could not be
     *  created (the reason is logged). */
    const char *(*data_directory)(void *context);

    /** Completes the perform that `completion` stands for, with success
     *  true or false and an optional message (NULL for none) that the
     *  broker returns to the caller.
     *
     *  Every perform call, and every launch call that returns true, MUST
     *  lead to exactly one complete call for its completion, from any
     *  thread, during the callback or at any later time. A second call is
     *  ignored and logged. A call after the broker gave up waiting is
     *  accepted and discarded. */
    void (*complete)(void *context, qa_completion completion, bool success, const char *message);

    /* ── Appended in ABI 1.1: a host older than 1.1 lacks it (QA_HOST_HAS) ── */

    /** ABI 1.1. Reads back the app's dynamic items as the broker keeps
     *  them: the list last set with set_dynamic_items, by this load or by
     *  an earlier run (the broker stores the list across its restarts), in
     *  the order set, each id present only where the plugin gave one. So a
     *  plugin can extend its list after a restart instead of replacing it
     *  blind.
     *
     *  Calls visit(user, items, count) exactly once, before returning;
     *  count 0 (items MAY then be NULL) when there are none. The items and
     *  everything they point to belong to the host and are valid only
     *  during that call: copy what you keep. visit MAY call other host
     *  functions, set_dynamic_items included. Callable from any thread from
     *  the start of init on.
     *
     *  Returns QA_STATUS_OK, or QA_STATUS_INVALID when visit is NULL (it is
     *  then not called). */
    qa_status (*get_dynamic_items)(void *context, qa_items_visitor visit, void *user);

    /* ── Appended in ABI 1.2: a host older than 1.2 lacks it (QA_HOST_HAS) ── */

    /** ABI 1.2. The limits this broker enforces on set_dynamic_items, valid
     *  until the process exits; never NULL in a 1.2 host. A plugin sizes its
     *  lists by them instead of by figures compiled into it. */
    const qa_limits *limits;
} qa_host;

/* ── The plugin's descriptor ────────────────────────────────────────── */

/** What the entry returns. Fields set to NULL are optional unless marked
 *  required. */
typedef struct qa_plugin {
    /** MUST be sizeof(qa_plugin) as the plugin was compiled. */
    size_t struct_size;
    /** MUST be QA_ABI_MAJOR as the plugin was compiled. */
    uint32_t abi_major;
    /** MUST be QA_ABI_MINOR as the plugin was compiled. QA_PLUGIN_DESCRIPTOR
     *  sets these three. */
    uint32_t abi_minor;
    /** A name for log lines, or NULL. */
    const char *name;

    /** Required. Called once, first, on the plugin's queue. `plugin` is the
     *  descriptor the entry returned (so a plugin can keep data beside it).
     *  Stores the plugin's own state in *state (it is passed back to every
     *  later callback; NULL is fine) and returns QA_STATUS_OK; or writes a
     *  NUL-terminated reason into `error` (QA_ERROR_BUFFER_SIZE bytes) and
     *  returns another status, and then the load fails with that reason.
     *  `host` stays valid until the process exits; keep it. */
    qa_status (*init)(const struct qa_plugin *plugin, const qa_host *host, void **state,
                      char *error, size_t error_size);

    /** Called when this perform loaded the plugin ("launch"), with the item
     *  that caused it, as iOS's application(_:didFinishLaunchingWithOptions:)
     *  receives the shortcut item.
     *
     *  Return true when the plugin handled the item here: it then MUST call
     *  complete(completion) exactly once and perform is NOT called for this
     *  request. Return false (or leave launch NULL) to have perform called
     *  right after, on the same queue, with the same request and
     *  completion; a launch returning false MUST NOT call the completion.
     *  (iOS spells "handled" as didFinishLaunching returning false; this
     *  ABI says what it means.) */
    bool (*launch)(void *state, const qa_request *request, qa_completion completion);

    /** Performs the request's item. MUST lead to exactly one
     *  complete(completion) call, now or later, from any thread. A later
     *  perform for an already loaded plugin ("resume") reaches perform
     *  alone. If NULL, the host completes every request with failure. */
    void (*perform)(void *state, const qa_request *request, qa_completion completion);

    /** Called before the broker stops (as applicationWillResignActive), so
     *  the plugin can update its dynamic items and save its state. The
     *  plugin SHOULD call set_dynamic_items before returning: the broker
     *  waits for this call to return, and only for it. More calls MAY
     *  follow. */
    void (*will_resign)(void *state);
} qa_plugin;

/** The type of the entry symbol. The entry MUST be cheap and free of side
 *  effects (it runs before the version check): no threads, no files. It
 *  MUST return the same descriptor every time, never NULL. */
typedef const qa_plugin *(*qa_plugin_entry_fn)(void);

/** Marks the entry as exported from the shared library. */
#if defined(__GNUC__) || defined(__clang__)
#define QA_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define QA_PLUGIN_EXPORT
#endif

/** Initialiser for a descriptor: struct_size, abi_major and abi_minor as
 *  this header says, then the members given by name (designated
 *  initialisers, C99); every member not named is NULL. See the example
 *  below. */
#define QA_PLUGIN_DESCRIPTOR(...) QA_PLUGIN_DESCRIPTOR_FOR_MINOR(QA_ABI_MINOR, __VA_ARGS__)

/** The same, declaring an older minor of this major. Hosts older than ABI 1.2
 *  refuse a plugin whose minor is newer than theirs; a plugin that must also
 *  load there declares the oldest minor whose members it needs (and checks
 *  QA_HOST_HAS for the rest). Hosts from 1.2 on load every minor. */
#define QA_PLUGIN_DESCRIPTOR_FOR_MINOR(minor, ...) \
    { .struct_size = sizeof(qa_plugin), .abi_major = QA_ABI_MAJOR, .abi_minor = (minor), __VA_ARGS__ }

#if !defined(__swift__)
/** A C plugin defines this function:
 *
 *      QA_PLUGIN_EXPORT const qa_plugin *quickactions_plugin_entry(void) {
 *          static const qa_plugin plugin = QA_PLUGIN_DESCRIPTOR(
 *              .name = "Music",
 *              .init = music_init,
 *              .perform = music_perform,
 *              .will_resign = music_will_resign);
 *          return &plugin;
 *      }
 *
 *  A Swift plugin uses QuickActionsSDK's PluginEntry instead. */
QA_PLUGIN_EXPORT const qa_plugin *quickactions_plugin_entry(void);
#endif

#ifdef __cplusplus
}
#endif

#endif /* QUICKACTIONS_PLUGIN_H */
