/*
 * A C test plugin for load and fault tests: as cheap as a plugin can be, so
 * what the tests measure is the broker. Driven by the type of the item:
 *
 *   fast      completes at once with success and "fast <type> <token>",
 *             <token> being the caller's activation token ("-" when none),
 *             so a caller can tell its own answer from any other
 *   never     never completes, and keeps nothing about the call
 *   hold      keeps its completion (in a list that grows as needed) and
 *             does not complete yet
 *   release   completes every held completion (late: the broker has
 *             usually stopped waiting for them), then itself with
 *             "released <n>"
 *   block     breaks the ABI's return-promptly rule on purpose: creates
 *             "<token>.blocking", then blocks inside perform until the
 *             file named by the activation token exists (polling every
 *             5 ms, for at most 30 s), then completes with success and
 *             "unblocked" (failure and "still blocked" after 30 s)
 *   other     completes with failure and "fast has no action <type>"
 *
 * will_resign logs "fast: will-resign" (so a test can count the calls).
 *
 * Every call into a plugin runs on its own serial queue (see
 * quickactions_plugin.h), so the held list needs no lock.
 */
#include <quickactions_plugin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct state {
    const qa_host *host;
    qa_completion *held;
    size_t held_count;
    size_t held_capacity;
} state;

static state the_state;

static qa_status fast_init(const qa_plugin *plugin, const qa_host *host, void **out, char *error,
                           size_t error_size) {
    (void)plugin;
    (void)error;
    (void)error_size;
    the_state.host = host;
    *out = &the_state;
    return QA_STATUS_OK;
}

static void complete(state *s, qa_completion completion, bool success, const char *message) {
    s->host->complete(s->host->context, completion, success, message);
}

static void hold(state *s, qa_completion completion) {
    if (s->held_count == s->held_capacity) {
        size_t capacity = s->held_capacity ? s->held_capacity * 2 : 64;
        qa_completion *grown = realloc(s->held, capacity * sizeof *grown);
        if (grown == NULL) {
            complete(s, completion, false, "fast: out of memory holding a completion");
            return;
        }
        s->held = grown;
        s->held_capacity = capacity;
    }
    s->held[s->held_count++] = completion;
}

static void release(state *s, qa_completion own) {
    size_t count = s->held_count;
    for (size_t i = 0; i < count; i++) {
        complete(s, s->held[i], true, "late");
    }
    free(s->held);
    s->held = NULL;
    s->held_count = 0;
    s->held_capacity = 0;
    char message[64];
    snprintf(message, sizeof message, "released %zu", count);
    complete(s, own, true, message);
}

static void block(state *s, const char *path, qa_completion completion) {
    char marker[4096];
    if (path == NULL || snprintf(marker, sizeof marker, "%s.blocking", path) >= (int)sizeof marker) {
        complete(s, completion, false, "fast: block needs a file path as its activation token");
        return;
    }
    FILE *file = fopen(marker, "w");
    if (file != NULL) {
        fclose(file);
    }
    const struct timespec pause = {0, 5 * 1000 * 1000};
    for (int waited = 0; waited < 6000; waited++) {
        if (access(path, F_OK) == 0) {
            complete(s, completion, true, "unblocked");
            return;
        }
        nanosleep(&pause, NULL);
    }
    complete(s, completion, false, "still blocked");
}

static void fast_perform(void *opaque, const qa_request *request, qa_completion completion) {
    state *s = opaque;
    const char *type = request->item->type;
    char message[QA_ERROR_BUFFER_SIZE];
    if (strcmp(type, "fast") == 0) {
        const char *token = request->activation_token ? request->activation_token : "-";
        snprintf(message, sizeof message, "fast %s %s", type, token);
        complete(s, completion, true, message);
    } else if (strcmp(type, "never") == 0) {
        /* Deliberately nothing. */
    } else if (strcmp(type, "hold") == 0) {
        hold(s, completion);
    } else if (strcmp(type, "release") == 0) {
        release(s, completion);
    } else if (strcmp(type, "block") == 0) {
        block(s, request->activation_token, completion);
    } else {
        snprintf(message, sizeof message, "fast has no action %s", type);
        complete(s, completion, false, message);
    }
}

static void fast_will_resign(void *opaque) {
    state *s = opaque;
    s->host->log(s->host->context, QA_LOG_INFO, "fast: will-resign");
}

QA_PLUGIN_EXPORT const qa_plugin *quickactions_plugin_entry(void) {
    static const qa_plugin plugin = QA_PLUGIN_DESCRIPTOR(
        .name = "Fast", .init = fast_init, .perform = fast_perform, .will_resign = fast_will_resign);
    return &plugin;
}
