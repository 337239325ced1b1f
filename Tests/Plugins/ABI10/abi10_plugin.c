/* A plugin as one built against ABI 1.0 behaves: its descriptor says 1.0,
 * and the items it hands the host end where 1.0's qa_item ended, before
 * `id` (struct_size 64 on LP64). The host must accept both, derive the
 * items' ids, and perform exactly the one a caller names.
 *
 *   publish   sets two dynamic items of type "pick", "Ada" and "Bob", that
 *             differ only in user info {"Name": …}; completes "published"
 *   pick      completes with "picked <Name> <id>", the request's user info
 *             and the id the host hands it (1.0 plugins ignore it; this
 *             one reads it to show that the host sets it)
 */
#include <quickactions_plugin.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* qa_item as ABI 1.0 laid it out: every field up to and including user_info. */
#define ABI10_ITEM_SIZE (offsetof(qa_item, user_info) + sizeof(qa_dictionary))

static const qa_host *host;

static qa_status abi10_init(const qa_plugin *plugin, const qa_host *table, void **state, char *error,
                            size_t error_size) {
    (void)plugin;
    (void)state;
    (void)error;
    (void)error_size;
    host = table;
    return QA_STATUS_OK;
}

static void publish(qa_completion completion) {
    qa_entry names[2] = {
        {"Name", {QA_VALUE_STRING, {.string = "Ada"}}},
        {"Name", {QA_VALUE_STRING, {.string = "Bob"}}},
    };
    qa_item items[2];
    const char *titles[2] = {"Ada", "Bob"};
    const qa_item *list[2];
    for (int i = 0; i < 2; i++) {
        memset(&items[i], 0, sizeof items[i]);
        items[i].struct_size = ABI10_ITEM_SIZE;
        items[i].type = "pick";
        items[i].title = titles[i];
        items[i].icon_kind = QA_ICON_NONE;
        items[i].user_info.entries = &names[i];
        items[i].user_info.count = 1;
        list[i] = &items[i];
    }
    char error[QA_ERROR_BUFFER_SIZE];
    if (host->set_dynamic_items(host->context, list, 2, error, sizeof error) != QA_STATUS_OK) {
        host->complete(host->context, completion, false, error);
        return;
    }
    host->complete(host->context, completion, true, "published");
}

static void abi10_perform(void *state, const qa_request *request, qa_completion completion) {
    (void)state;
    const qa_item *item = request->item;
    if (strcmp(item->type, "publish") == 0) {
        publish(completion);
        return;
    }
    const char *name = "-";
    for (size_t i = 0; i < item->user_info.count; i++) {
        const qa_entry *entry = &item->user_info.entries[i];
        if (strcmp(entry->key, "Name") == 0 && entry->value.kind == QA_VALUE_STRING) name = entry->value.u.string;
    }
    const char *id = item->struct_size > offsetof(qa_item, id) && item->id ? item->id : "(none)";
    char message[512];
    snprintf(message, sizeof message, "picked %s %s", name, id);
    host->complete(host->context, completion, true, message);
}

QA_PLUGIN_EXPORT const qa_plugin *quickactions_plugin_entry(void) {
    static const qa_plugin plugin = QA_PLUGIN_DESCRIPTOR_FOR_MINOR(
        0, .name = "ABI10", .init = abi10_init, .perform = abi10_perform);
    return &plugin;
}
