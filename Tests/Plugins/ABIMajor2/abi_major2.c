/* A plugin built against a future major version (2.0): the host must refuse
 * it with PluginLoadError.abiMismatch before calling init. */
#include <quickactions_plugin.h>

static qa_status must_not_run(const qa_plugin *plugin, const qa_host *host, void **state, char *error,
                              size_t error_size) {
    (void)plugin;
    (void)state;
    (void)error;
    (void)error_size;
    host->log(host->context, QA_LOG_ERROR, "abi-major2: init ran although the ABI does not match");
    return QA_STATUS_OK;
}

QA_PLUGIN_EXPORT const qa_plugin *quickactions_plugin_entry(void) {
    /* Not QA_PLUGIN_DESCRIPTOR: that declares this header's version. */
    static const qa_plugin plugin = {
        .struct_size = sizeof(qa_plugin),
        .abi_major = QA_ABI_MAJOR + 1,
        .abi_minor = 0,
        .name = "ABIMajor2",
        .init = must_not_run,
    };
    return &plugin;
}
