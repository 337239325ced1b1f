/*
 * A C test plugin driven by the type of the item it performs. It proves the
 * ABI from C and misbehaves on purpose where the loader must cope:
 *
 *   succeed            completes with success and "C performed <type>: <title>"
 *   fail               completes with failure and a message
 *   twice              completes twice (the second must be ignored and logged)
 *   never              stashes its completion and never calls it
 *   complete-stashed   calls the stashed completion late, then its own
 *   launch-handled     (at launch) handles the item in launch
 *   launch-misbehaves  (at launch) completes in launch but returns false
 *   items-<case>       calls set_dynamic_items with a hostile or valid list
 *                      (see set_items) and completes with "status=<n>: <error>"
 *
 *   stored             completes with "stored at init: <n>: <type>(<id>),..." —
 *                      what get_dynamic_items (ABI 1.1) gave init
 *   request-id         completes with "request_id=<n>" (ABI 1.3), or
 *                      "request_id=absent" from a host whose request lacks it
 *
 * will_resign sets one dynamic item of type "resigned".
 */
#include <quickactions_plugin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct state {
    const qa_host *host;
    qa_completion stashed;
    int has_stashed;
    /* What get_dynamic_items handed init, as text. */
    char stored[512];
} state;

static state the_state;

/* get_dynamic_items' visitor: copies types and ids out while the host's items are valid. */
static void remember_stored(void *user, const qa_item *const *items, size_t count) {
    char *out = user;
    size_t used = (size_t)snprintf(out, sizeof the_state.stored, "%zu:", count);
    for (size_t i = 0; i < count && used < sizeof the_state.stored; i++) {
        used += (size_t)snprintf(out + used, sizeof the_state.stored - used, "%s%s(%s)", i == 0 ? " " : ",",
                                 items[i]->type, items[i]->id != NULL ? items[i]->id : "-");
    }
}

static qa_status c_init(const qa_plugin *plugin, const qa_host *host, void **out, char *error, size_t error_size) {
    (void)plugin;
    (void)error;
    (void)error_size;
    the_state.host = host;
    *out = &the_state;
    host->log(host->context, QA_LOG_INFO, "c-plugin: init");
    if (QA_HOST_HAS(host, get_dynamic_items)) {
        host->get_dynamic_items(host->context, remember_stored, the_state.stored);
    } else {
        snprintf(the_state.stored, sizeof the_state.stored, "no get_dynamic_items");
    }
    return QA_STATUS_OK;
}

static void complete(state *s, qa_completion completion, bool success, const char *message) {
    s->host->complete(s->host->context, completion, success, message);
}

/* A list of every value kind, checked value for value by the tests. */
static qa_status set_valid_items(state *s, char *error, size_t size) {
    static const uint8_t raw[] = {0, 1, 2, 255};
    static const qa_value array_items[] = {
        {QA_VALUE_INT, {.integer = 1}},
        {QA_VALUE_STRING, {.string = "two"}},
    };
    static const qa_entry nested[] = {
        {"inner", {QA_VALUE_BOOL, {.boolean = false}}},
    };
    static const qa_entry info[] = {
        {"string", {QA_VALUE_STRING, {.string = "Grüße"}}},
        {"bool", {QA_VALUE_BOOL, {.boolean = true}}},
        {"int", {QA_VALUE_INT, {.integer = INT64_MIN}}},
        {"double", {QA_VALUE_DOUBLE, {.real = 2.5}}},
        {"bytes", {QA_VALUE_BYTES, {.bytes = {raw, sizeof raw}}}},
        {"array", {QA_VALUE_ARRAY, {.array = {array_items, 2}}}},
        {"dict", {QA_VALUE_DICTIONARY, {.dictionary = {nested, 1}}}},
    };
    qa_item first = QA_ITEM_INIT;
    first.type = "c.first";
    first.title = "First";
    first.subtitle = "From C";
    first.icon_kind = QA_ICON_TYPE;
    first.icon = "UIApplicationShortcutIconTypePlay";
    first.user_info.entries = info;
    first.user_info.count = sizeof info / sizeof info[0];
    qa_item second = QA_ITEM_INIT;
    second.type = "c.second";
    second.title = "Second";
    second.icon_kind = QA_ICON_FILE;
    second.icon = "icons/second.png";
    const qa_item *items[] = {&first, &second};
    return s->host->set_dynamic_items(s->host->context, items, 2, error, size);
}

/* An item from a future minor version: more fields than the host knows. */
typedef struct future_item {
    qa_item base;
    const char *future_field;
    int64_t another;
} future_item;

static qa_status set_items(state *s, const char *which, char *error, size_t size) {
    const qa_host *h = s->host;
    qa_item item = QA_ITEM_INIT;
    item.type = "c.item";
    item.title = "Item";
    const qa_item *one[] = {&item};

    if (strcmp(which, "ok") == 0) return set_valid_items(s, error, size);
    if (strcmp(which, "clear") == 0) return h->set_dynamic_items(h->context, NULL, 0, error, size);
    if (strcmp(which, "null-type") == 0) {
        item.type = NULL;
        return h->set_dynamic_items(h->context, one, 1, error, size);
    }
    if (strcmp(which, "null-item") == 0) {
        const qa_item *list[] = {&item, NULL};
        return h->set_dynamic_items(h->context, list, 2, error, size);
    }
    if (strcmp(which, "null-list") == 0) return h->set_dynamic_items(h->context, NULL, 3, error, size);
    if (strcmp(which, "bad-utf8") == 0) {
        item.title = "bad \xff\xfe title";
        return h->set_dynamic_items(h->context, one, 1, error, size);
    }
    if (strcmp(which, "small-struct") == 0) {
        item.struct_size = sizeof(size_t);
        return h->set_dynamic_items(h->context, one, 1, error, size);
    }
    if (strcmp(which, "future-struct") == 0) {
        future_item future = {item, "ignored", 7};
        future.base.struct_size = sizeof future;
        const qa_item *list[] = {&future.base};
        return h->set_dynamic_items(h->context, list, 1, error, size);
    }
    if (strcmp(which, "unknown-icon") == 0) {
        item.icon_kind = QA_ICON_TYPE;
        item.icon = "UIApplicationShortcutIconTypeNope";
        return h->set_dynamic_items(h->context, one, 1, error, size);
    }
    if (strcmp(which, "bad-kind") == 0 || strcmp(which, "null-string") == 0 || strcmp(which, "dup-key") == 0) {
        qa_entry entries[2] = {{"a", {QA_VALUE_INT, {.integer = 1}}}, {"b", {QA_VALUE_INT, {.integer = 2}}}};
        if (which[0] == 'b') entries[1].value.kind = 99;
        if (which[0] == 'n') entries[1].value = (qa_value){QA_VALUE_STRING, {.string = NULL}};
        if (which[0] == 'd') entries[1].key = "a";
        item.user_info.entries = entries;
        item.user_info.count = 2;
        return h->set_dynamic_items(h->context, one, 1, error, size);
    }
    if (strcmp(which, "deep") == 0) {
        /* 200 arrays nested in each other: past the host's depth bound. */
        enum { depth = 200 };
        qa_value *chain = calloc(depth, sizeof *chain);
        if (chain == NULL) return QA_STATUS_FAILED;
        for (int i = 0; i < depth; i++) {
            chain[i].kind = QA_VALUE_ARRAY;
            chain[i].u.array.items = i + 1 < depth ? &chain[i + 1] : NULL;
            chain[i].u.array.count = i + 1 < depth ? 1 : 0;
        }
        qa_entry entry = {"deep", chain[0]};
        item.user_info.entries = &entry;
        item.user_info.count = 1;
        qa_status status = h->set_dynamic_items(h->context, one, 1, error, size);
        free(chain);
        return status;
    }
    if (strcmp(which, "cycle") == 0) {
        /* An array that contains itself. */
        qa_value cyclic;
        cyclic.kind = QA_VALUE_ARRAY;
        cyclic.u.array.items = &cyclic;
        cyclic.u.array.count = 1;
        qa_entry entry = {"cycle", cyclic};
        item.user_info.entries = &entry;
        item.user_info.count = 1;
        return h->set_dynamic_items(h->context, one, 1, error, size);
    }
    if (strcmp(which, "fan-out") == 0) {
        /* A DAG whose unfolded tree has 2^40 values: past the value budget,
         * though only 40 levels deep. Built bottom-up: level i holds two
         * copies of level i + 1. */
        enum { depth = 40 };
        qa_value pair[depth][2];
        qa_value current = {QA_VALUE_ARRAY, {.array = {NULL, 0}}};
        for (int i = depth - 2; i >= 0; i--) {
            pair[i][0] = current;
            pair[i][1] = current;
            current.kind = QA_VALUE_ARRAY;
            current.u.array.items = pair[i];
            current.u.array.count = 2;
        }
        qa_entry entry = {"fan", current};
        item.user_info.entries = &entry;
        item.user_info.count = 1;
        return h->set_dynamic_items(h->context, one, 1, error, size);
    }
    snprintf(error, size, "c-plugin: unknown items case %s", which);
    return QA_STATUS_FAILED;
}

static void c_perform(void *opaque, const qa_request *request, qa_completion completion) {
    state *s = opaque;
    const char *type = request->item->type;
    char message[QA_ERROR_BUFFER_SIZE + 64];
    if (strcmp(type, "succeed") == 0) {
        snprintf(message, sizeof message, "C performed %s: %s", type, request->item->title);
        complete(s, completion, true, message);
    } else if (strcmp(type, "fail") == 0) {
        complete(s, completion, false, "C failed on purpose");
    } else if (strcmp(type, "twice") == 0) {
        complete(s, completion, true, "first");
        complete(s, completion, false, "second");
    } else if (strcmp(type, "never") == 0) {
        s->stashed = completion;
        s->has_stashed = 1;
    } else if (strcmp(type, "complete-stashed") == 0) {
        if (s->has_stashed) {
            complete(s, s->stashed, true, "late");
            s->has_stashed = 0;
        }
        complete(s, completion, true, "flushed");
    } else if (strcmp(type, "stored") == 0) {
        snprintf(message, sizeof message, "stored at init: %s", s->stored);
        complete(s, completion, true, message);
    } else if (strcmp(type, "request-id") == 0) {
        if (QA_HAS_FIELD(request, qa_request, request_id)) {
            snprintf(message, sizeof message, "request_id=%llu", (unsigned long long)request->request_id);
        } else {
            snprintf(message, sizeof message, "request_id=absent");
        }
        complete(s, completion, true, message);
    } else if (strncmp(type, "items-", 6) == 0) {
        char error[QA_ERROR_BUFFER_SIZE] = "";
        qa_status status = set_items(s, type + 6, error, sizeof error);
        snprintf(message, sizeof message, "status=%d: %s", (int)status, error);
        complete(s, completion, status == QA_STATUS_OK, message);
    } else {
        snprintf(message, sizeof message, "C has no action %s", type);
        complete(s, completion, false, message);
    }
}

static bool c_launch(void *opaque, const qa_request *request, qa_completion completion) {
    state *s = opaque;
    if (strcmp(request->item->type, "launch-handled") == 0) {
        complete(s, completion, true, "C handled at launch");
        return true;
    }
    if (strcmp(request->item->type, "launch-misbehaves") == 0) {
        /* Breaks the rule "a launch returning false MUST NOT complete". */
        complete(s, completion, true, "completed in launch");
        return false;
    }
    return false;
}

static void c_will_resign(void *opaque) {
    state *s = opaque;
    qa_item item = QA_ITEM_INIT;
    item.type = "resigned";
    item.title = "Resigned";
    const qa_item *items[] = {&item};
    s->host->set_dynamic_items(s->host->context, items, 1, NULL, 0);
}

QA_PLUGIN_EXPORT const qa_plugin *quickactions_plugin_entry(void) {
    static const qa_plugin plugin = QA_PLUGIN_DESCRIPTOR(
        .name = "CScenarios", .init = c_init, .launch = c_launch, .perform = c_perform, .will_resign = c_will_resign);
    return &plugin;
}
