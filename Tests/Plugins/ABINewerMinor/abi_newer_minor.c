/* A plugin built against a newer minor version than the host's: the host
 * must refuse it with PluginLoadError.abiMismatch before calling init. */
#include <quickactions_plugin.h>

static qa_status must_not_run(const qa_plugin *plugin, const qa_host *host, void **state, char *error,
                              size_t error_size) {
    (void)plugin;
    (void)state;
    (void)error;
    (void)error_size;
    host->log(host->context, QA_LOG_ERROR, "abi-newer-minor: init ran although the ABI does not match");
    return QA_STATUS_OK;
}

QA_PLUGIN_EXPORT const qa_plugin *quickactions_plugin_entry(void) {
    static const qa_plugin plugin = {
        sizeof(qa_plugin), QA_ABI_MAJOR, QA_ABI_MINOR + 1, "ABINewerMinor", must_not_run, NULL, NULL, NULL,
    };
    return &plugin;
}
