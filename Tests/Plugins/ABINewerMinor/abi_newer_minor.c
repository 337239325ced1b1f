/* A plugin as one built against a future minor of this major (1.9) behaves:
 * its descriptor and its items are larger than this header's, and the
 * fields a 1.9 header would append are filled with poison (pointers that
 * crash when followed, bytes 0xA5). The host must load it, read its
 * descriptor and items only as far as the fields it knows, ignore the rest,
 * and tell it the host's own version and limits in qa_host.
 *
 *   publish   sets two dynamic items of type "future" ("Ada" with id
 *             "future-ada", subtitle "first", user info {"n": 1}; "Bob"
 *             without id, icon symbol "star"), each a future_item whose
 *             poisoned tail the host must not read; completes "published"
 *   future    (a published item) completes "performed <title> <id>"
 *   report    completes with what the host told it: "host <major>.<minor>
 *             table=<struct_size> item=<request item's struct_size>
 *             limits items=… type=… id=… title=… subtitle=… icon=…
 *             user-info-bytes=… depth=… call-depth=… call-values=…
 *             call-payload=… call-items=…" (limits=absent from a host
 *             without them)
 *   probe     tries the limits the host table gives against the broker,
 *             each at the limit and one past it, and completes with the
 *             statuses: "items <n>:<s> <n+1>:<s> title <n>:<s> <n+1>:<s>
 *             depth <n>:<s> <n+1>:<s> user-info-bytes <largest accepted
 *             byte string in {"b": bytes}>"
 */
#include <quickactions_plugin.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* The minor this plugin claims. */
#define FUTURE_MINOR 9
typedef char future_minor_is_newer[FUTURE_MINOR > QA_ABI_MINOR ? 1 : -1];

/* Crashes whoever follows it; bytes 0xA5 elsewhere. */
#define POISON_POINTER ((const void *)(uintptr_t)0xA5A5A5A5A5A5A5A5u)
#define POISON_WORD 0xA5A5A5A5A5A5A5A5u

/* qa_plugin as a 1.9 header might have it: this header's fields, then more. */
typedef struct future_plugin {
    qa_plugin base;
    const void *future_callback;
    uint64_t future_flags[3];
} future_plugin;

/* qa_item as a 1.9 header might have it. */
typedef struct future_item {
    qa_item base;
    const char *future_badge;
    uint64_t future_flags;
} future_item;

static const qa_host *host;

static qa_status future_init(const qa_plugin *plugin, const qa_host *table, void **state, char *error,
                             size_t error_size) {
    (void)plugin;
    (void)state;
    (void)error;
    (void)error_size;
    host = table;
    host->log(host->context, QA_LOG_INFO, "abi-newer-minor: init");
    return QA_STATUS_OK;
}

static future_item future(const char *type, const char *title) {
    future_item item;
    memset(&item, 0xA5, sizeof item);
    memset(&item.base, 0, sizeof item.base);
    item.base.struct_size = sizeof item;
    item.base.type = type;
    item.base.title = title;
    item.base.icon_kind = QA_ICON_NONE;
    item.future_badge = POISON_POINTER;
    item.future_flags = POISON_WORD;
    return item;
}

static qa_status set_items(future_item *items, size_t count, char *error, size_t size) {
    static const qa_item *list[256];
    if (count > sizeof list / sizeof list[0]) return QA_STATUS_FAILED;
    for (size_t i = 0; i < count; i++) list[i] = &items[i].base;
    return host->set_dynamic_items(host->context, list, count, error, size);
}

static void publish(qa_completion completion) {
    static const qa_entry info[] = {{"n", {QA_VALUE_INT, {.integer = 1}}}};
    future_item items[2] = {future("future", "Ada"), future("future", "Bob")};
    items[0].base.id = "future-ada";
    items[0].base.subtitle = "first";
    items[0].base.user_info.entries = info;
    items[0].base.user_info.count = 1;
    items[1].base.icon_kind = QA_ICON_SYMBOL;
    items[1].base.icon = "star";
    char error[QA_ERROR_BUFFER_SIZE] = "";
    if (set_items(items, 2, error, sizeof error) != QA_STATUS_OK) {
        host->complete(host->context, completion, false, error);
        return;
    }
    host->complete(host->context, completion, true, "published");
}

static void report(const qa_request *request, qa_completion completion) {
    char message[1024];
    int used = snprintf(message, sizeof message, "host %u.%u table=%zu item=%zu", host->abi_major, host->abi_minor,
                        host->struct_size, request->item->struct_size);
    if (!QA_HOST_HAS(host, limits)) {
        snprintf(message + used, sizeof message - (size_t)used, " limits=absent");
    } else {
        const qa_limits *l = host->limits;
        snprintf(message + used, sizeof message - (size_t)used,
                 " limits items=%u type=%u id=%u title=%u subtitle=%u icon=%u user-info-bytes=%u depth=%u"
                 " call-depth=%u call-values=%u call-payload=%u call-items=%u",
                 l->max_items, l->max_type_bytes, l->max_id_bytes, l->max_title_bytes, l->max_subtitle_bytes,
                 l->max_icon_bytes, l->max_user_info_bytes, l->max_user_info_depth, l->call_max_depth,
                 l->call_max_values, l->call_max_payload_bytes, l->call_max_items);
    }
    host->complete(host->context, completion, true, message);
}

/* The status of a list of `count` plain items. */
static qa_status try_count(size_t count) {
    static future_item items[256];
    static char types[256][8];
    for (size_t i = 0; i < count && i < 256; i++) {
        snprintf(types[i], sizeof types[i], "t%zu", i);
        items[i] = future(types[i], "T");
    }
    char error[QA_ERROR_BUFFER_SIZE];
    return set_items(items, count, error, sizeof error);
}

/* The status of one item whose title is `length` bytes. */
static qa_status try_title(size_t length) {
    static char title[1 << 16];
    if (length >= sizeof title) return QA_STATUS_FAILED;
    memset(title, 'x', length);
    title[length] = '\0';
    future_item item = future("t", title);
    char error[QA_ERROR_BUFFER_SIZE];
    return set_items(&item, 1, error, sizeof error);
}

/* The status of one item whose user info is `depth` levels deep: {"n": {"n": … {}}}. */
static qa_status try_depth(size_t depth) {
    static qa_entry entries[256];
    if (depth == 0 || depth > 256) return QA_STATUS_FAILED;
    /* entries[i] is the one entry of level i + 1; the deepest level is empty. */
    for (size_t i = 0; i + 1 < depth; i++) {
        entries[i].key = "n";
        entries[i].value.kind = QA_VALUE_DICTIONARY;
        entries[i].value.u.dictionary.entries = i + 2 < depth ? &entries[i + 1] : NULL;
        entries[i].value.u.dictionary.count = i + 2 < depth ? 1 : 0;
    }
    future_item item = future("t", "T");
    item.base.user_info.entries = depth > 1 ? entries : NULL;
    item.base.user_info.count = depth > 1 ? 1 : 0;
    char error[QA_ERROR_BUFFER_SIZE];
    return set_items(&item, 1, error, sizeof error);
}

/* The status of one item whose user info is {"b": <length bytes>}. */
static qa_status try_bytes(size_t length) {
    static uint8_t bytes[1 << 20];
    if (length > sizeof bytes) return QA_STATUS_FAILED;
    memset(bytes, 7, length);
    qa_entry entry = {"b", {QA_VALUE_BYTES, {.bytes = {bytes, length}}}};
    future_item item = future("t", "T");
    item.base.user_info.entries = &entry;
    item.base.user_info.count = 1;
    char error[QA_ERROR_BUFFER_SIZE];
    return set_items(&item, 1, error, sizeof error);
}

static void probe(qa_completion completion) {
    if (!QA_HOST_HAS(host, limits)) {
        host->complete(host->context, completion, false, "the host gives no limits");
        return;
    }
    const qa_limits *l = host->limits;
    size_t items = l->max_items, title = l->max_title_bytes, depth = l->max_user_info_depth;
    int s[6] = {try_count(items), try_count(items + 1), try_title(title), try_title(title + 1), try_depth(depth),
                try_depth(depth + 1)};
    /* The largest byte string accepted, by bisection: the store's encoding adds a few bytes. */
    size_t low = 0, high = l->max_user_info_bytes + 1; /* low accepted (empty is), high refused */
    if (try_bytes(high) == QA_STATUS_OK) {
        host->complete(host->context, completion, false, "a byte string past max_user_info_bytes was accepted");
        return;
    }
    while (high - low > 1) {
        size_t middle = low + (high - low) / 2;
        if (try_bytes(middle) == QA_STATUS_OK) low = middle; else high = middle;
    }
    try_count(0);
    char message[512];
    snprintf(message, sizeof message,
             "items %zu:%d %zu:%d title %zu:%d %zu:%d depth %zu:%d %zu:%d user-info-bytes %zu", items, s[0],
             items + 1, s[1], title, s[2], title + 1, s[3], depth, s[4], depth + 1, s[5], low);
    host->complete(host->context, completion, true, message);
}

static void future_perform(void *state, const qa_request *request, qa_completion completion) {
    (void)state;
    const qa_item *item = request->item;
    if (strcmp(item->type, "publish") == 0) {
        publish(completion);
    } else if (strcmp(item->type, "report") == 0) {
        report(request, completion);
    } else if (strcmp(item->type, "probe") == 0) {
        probe(completion);
    } else {
        char message[512];
        const char *id = QA_HAS_FIELD(item, qa_item, id) && item->id != NULL ? item->id : "(none)";
        snprintf(message, sizeof message, "performed %s %s", item->title, id);
        host->complete(host->context, completion, true, message);
    }
}

QA_PLUGIN_EXPORT const qa_plugin *quickactions_plugin_entry(void) {
    /* Not QA_PLUGIN_DESCRIPTOR: this descriptor is larger, and of another minor. */
    static const future_plugin plugin = {
        .base = {
            .struct_size = sizeof(future_plugin),
            .abi_major = QA_ABI_MAJOR,
            .abi_minor = FUTURE_MINOR,
            .name = "ABINewerMinor",
            .init = future_init,
            .perform = future_perform,
        },
        .future_callback = POISON_POINTER,
        .future_flags = {POISON_WORD, POISON_WORD, POISON_WORD},
    };
    return &plugin.base;
}
