/*
 * The benchmark's C plugin: every perform completes at once with success;
 * items of type "bench.message" complete with a message (what real plugins
 * do), every other item without one (the broker then sends a reply it
 * encoded beforehand), so a Perform through the broker measures the broker
 * alone.
 * launch returns false (the broker then calls perform), so a first Perform
 * costs exactly dlopen, init and one launch callback more than a warm one.
 *
 * Its state lives in the pointer init hands back, not in globals, so the
 * same library file may serve several apps.
 */
#include <quickactions_plugin.h>
#include <stdlib.h>
#include <string.h>

typedef struct bench_state {
    const qa_host *host;
} bench_state;

static qa_status bench_init(const qa_plugin *plugin, const qa_host *host, void **out, char *error,
                            size_t error_size) {
    (void)plugin;
    (void)error;
    (void)error_size;
    bench_state *state = malloc(sizeof *state);
    if (state == NULL) return QA_STATUS_FAILED;
    state->host = host;
    *out = state;
    return QA_STATUS_OK;
}

static bool bench_launch(void *opaque, const qa_request *request, qa_completion completion) {
    (void)opaque;
    (void)request;
    (void)completion;
    return false;
}

static void bench_perform(void *opaque, const qa_request *request, qa_completion completion) {
    const bench_state *state = opaque;
    const char *message = strcmp(request->item->type, "bench.message") == 0 ? "Performed at once" : NULL;
    state->host->complete(state->host->context, completion, true, message);
}

QA_PLUGIN_EXPORT const qa_plugin *quickactions_plugin_entry(void) {
    static const qa_plugin plugin = QA_PLUGIN_DESCRIPTOR(
        .name = "Bench", .init = bench_init, .launch = bench_launch, .perform = bench_perform);
    return &plugin;
}
