/*
 * A C test plugin that takes the broker down on purpose:
 *
 *   crash   dereferences NULL inside perform (SIGSEGV in the broker process)
 *   other   completes with success and "alive"
 */
#include <quickactions_plugin.h>
#include <signal.h>
#include <string.h>

static const qa_host *the_host;

static qa_status crash_init(const qa_plugin *plugin, const qa_host *host, void **state, char *error, size_t size) {
    (void)plugin;
    (void)error;
    (void)size;
    the_host = host;
    *state = NULL;
    return QA_STATUS_OK;
}

static void crash_perform(void *state, const qa_request *request, qa_completion completion) {
    (void)state;
    if (strcmp(request->item->type, "crash") == 0) {
        raise(SIGSEGV);
    }
    the_host->complete(the_host->context, completion, true, "alive");
}

static const qa_plugin descriptor = QA_PLUGIN_DESCRIPTOR(
    .name = "crash-test",
    .init = crash_init,
    .perform = crash_perform);

const qa_plugin *quickactions_plugin_entry(void) {
    return &descriptor;
}
