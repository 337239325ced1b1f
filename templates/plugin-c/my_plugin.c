/* The plugin of com.example.MyPlugin. The ABI's rules are in
 * quickactions_plugin.h; docs/plugin-guide.md walks through them. */
#include <quickactions_plugin.h>
#include <stdio.h>
#include <string.h>

static const qa_host *host;

static qa_status my_init(const qa_plugin *plugin, const qa_host *table, void **state, char *error,
                         size_t error_size) {
    (void)plugin;
    (void)error;
    (void)error_size;
    host = table;
    *state = NULL;
    return QA_STATUS_OK;
}

static void my_perform(void *state, const qa_request *request, qa_completion completion) {
    (void)state;
    if (strcmp(request->item->type, "open") == 0) {
        host->complete(host->context, completion, true, "MyPlugin opened");
        return;
    }
    char message[512];
    snprintf(message, sizeof message, "MyPlugin has no action %s", request->item->type);
    host->complete(host->context, completion, false, message);
}

QA_PLUGIN_EXPORT const qa_plugin *quickactions_plugin_entry(void) {
    static const qa_plugin plugin = QA_PLUGIN_DESCRIPTOR(.name = "MyPlugin", .init = my_init, .perform = my_perform);
    return &plugin;
}
