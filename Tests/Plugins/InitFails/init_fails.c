/* A plugin whose init fails with a message: the loader must report
 * PluginLoadError.initFailed with exactly this text, then unload it. */
#include <quickactions_plugin.h>
#include <stdio.h>

static qa_status init_fails(const qa_plugin *plugin, const qa_host *host, void **state, char *error,
                            size_t error_size) {
    (void)plugin;
    (void)state;
    host->log(host->context, QA_LOG_INFO, "init-fails: about to fail");
    if (error != NULL && error_size > 0) {
        snprintf(error, error_size, "contacts database is corrupt: %s", "contacts.db");
    }
    return QA_STATUS_FAILED;
}

QA_PLUGIN_EXPORT const qa_plugin *quickactions_plugin_entry(void) {
    static const qa_plugin plugin = QA_PLUGIN_DESCRIPTOR(.name = "InitFails", .init = init_fails);
    return &plugin;
}
