/*
 * Music: the QuickActions version of the music player in "iOS quick actions" (Neil Smyth's
 * iOS App Development Essentials), written in C against quickactions_plugin.h alone, to show
 * that the ABI serves any language. See plugins/README.md.
 *
 *   - Static item (Info.plist): PlayMusic ("Play", "Start playback", play icon), with a user
 *     info dictionary { playlist: "Recently Added", shuffle: true } that perform reads.
 *   - Dynamic items, set when the plugin resigns (the article's sceneWillResignActive):
 *     SearchMusic ("Search", "Find a track to play") and AddMusic ("Add Track", "Add track to
 *     playlist").
 *   - Once playback starts (PlayMusic performed) the first dynamic item is replaced by
 *     PauseMusic ("Pause", "Pause playback"); PauseMusic puts SearchMusic back. Only while
 *     the dynamic items are shown: a replacement never brings back a cleared list.
 *   - Clearing: perform any item with the caller argument `clear` (b) true; the dynamic list
 *     is then empty until the next resign (as `application.shortcutItems = []` on iOS).
 *
 * Messages: the item's (localised) title, and for PlayMusic the playlist and shuffle mode from
 * its user info ("Play: Recently Added, shuffle on"); " (quick actions cleared)" is appended
 * after a clear.
 *
 * Whether the dynamic items are shown is kept in music.state in the plugin's data directory,
 * so it survives a restart of the broker, which keeps the list but does not hand it back.
 * Playback state is not kept: a restarted app is not playing.
 *
 * Every callback runs on the plugin's serial queue, one at a time, so the state needs no lock.
 */
#include <quickactions_plugin.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct music {
    const qa_host *host;
    /* Whether PlayMusic started playback and PauseMusic has not stopped it. */
    bool playing;
    /* Whether the dynamic items are shown (set at resign, emptied by a clear). */
    bool shown;
    /* The state file, or "" when there is no data directory. */
    char state_path[4096];
} music;

static music the_music;

static void music_log(const music *m, int32_t level, const char *format, const char *value) {
    char line[1024];
    snprintf(line, sizeof line, format, value);
    m->host->log(m->host->context, level, line);
}

/* ── State file ─────────────────────────────────────────────────────── */

static void load_state(music *m) {
    if (m->state_path[0] == '\0') return;
    FILE *file = fopen(m->state_path, "r");
    if (file == NULL) {
        if (errno != ENOENT) music_log(m, QA_LOG_WARNING, "music: cannot read %s", m->state_path);
        return;
    }
    char line[64];
    if (fgets(line, sizeof line, file) != NULL) {
        m->shown = strcmp(line, "shortcuts=shown\n") == 0;
    }
    fclose(file);
}

/* Writes the state to a temporary file and renames it over the old one. */
static void save_state(const music *m) {
    if (m->state_path[0] == '\0') return;
    char temporary[sizeof m->state_path + 8];
    snprintf(temporary, sizeof temporary, "%s.tmp", m->state_path);
    FILE *file = fopen(temporary, "w");
    if (file == NULL) {
        music_log(m, QA_LOG_WARNING, "music: cannot write %s", temporary);
        return;
    }
    int written = fputs(m->shown ? "shortcuts=shown\n" : "shortcuts=none\n", file);
    if (fclose(file) != 0 || written < 0 || rename(temporary, m->state_path) != 0) {
        music_log(m, QA_LOG_WARNING, "music: cannot save %s", m->state_path);
        remove(temporary);
    }
}

/* ── Dynamic items ──────────────────────────────────────────────────── */

static qa_item make_item(const char *type, const char *title, const char *subtitle, const char *icon) {
    qa_item item = QA_ITEM_INIT;
    item.type = type;
    item.title = title;
    item.subtitle = subtitle;
    item.icon_kind = QA_ICON_TYPE;
    item.icon = icon;
    return item;
}

/* Sets the dynamic list to [Search or Pause, Add Track]; the error goes into `error`. */
static qa_status publish(music *m, char *error, size_t error_size) {
    qa_item first = m->playing
        ? make_item("PauseMusic", "Pause", "Pause playback", "UIApplicationShortcutIconTypePause")
        : make_item("SearchMusic", "Search", "Find a track to play", "UIApplicationShortcutIconTypeSearch");
    qa_item add = make_item("AddMusic", "Add Track", "Add track to playlist", "UIApplicationShortcutIconTypeAdd");
    const qa_item *items[] = {&first, &add};
    return m->host->set_dynamic_items(m->host->context, items, 2, error, error_size);
}

static qa_status clear(music *m, char *error, size_t error_size) {
    return m->host->set_dynamic_items(m->host->context, NULL, 0, error, error_size);
}

/* ── Values ─────────────────────────────────────────────────────────── */

/* The value under `key` in `dictionary`, or NULL. */
static const qa_value *lookup(const qa_dictionary *dictionary, const char *key) {
    for (size_t i = 0; i < dictionary->count; i++) {
        if (strcmp(dictionary->entries[i].key, key) == 0) return &dictionary->entries[i].value;
    }
    return NULL;
}

/* ── Callbacks ──────────────────────────────────────────────────────── */

static qa_status music_init(const qa_plugin *plugin, const qa_host *host, void **state, char *error,
                            size_t error_size) {
    (void)plugin;
    (void)error;
    (void)error_size;
    music *m = &the_music;
    memset(m, 0, sizeof *m);
    m->host = host;
    const char *folder = host->data_directory(host->context);
    if (folder != NULL) {
        int length = snprintf(m->state_path, sizeof m->state_path, "%s/music.state", folder);
        if (length < 0 || (size_t)length >= sizeof m->state_path) m->state_path[0] = '\0';
    }
    if (m->state_path[0] == '\0') {
        host->log(host->context, QA_LOG_WARNING, "music: no data directory; the shown items are not remembered");
    }
    load_state(m);
    *state = m;
    return QA_STATUS_OK;
}

static void music_perform(void *state, const qa_request *request, qa_completion completion) {
    music *m = state;
    const qa_item *item = request->item;
    char message[1200];
    char error[QA_ERROR_BUFFER_SIZE] = "";
    qa_status status = QA_STATUS_OK;

    const qa_value *clear_argument = lookup(&request->arguments, "clear");
    if (clear_argument != NULL && clear_argument->kind != QA_VALUE_BOOL) {
        m->host->complete(m->host->context, completion, false, "argument 'clear' must be a boolean");
        return;
    }

    if (strcmp(item->type, "PlayMusic") == 0) {
        const qa_value *playlist = lookup(&item->user_info, "playlist");
        const qa_value *shuffle = lookup(&item->user_info, "shuffle");
        m->playing = true;
        snprintf(message, sizeof message, "%s: %s, shuffle %s", item->title,
                 playlist != NULL && playlist->kind == QA_VALUE_STRING ? playlist->u.string : "all tracks",
                 shuffle != NULL && shuffle->kind == QA_VALUE_BOOL && shuffle->u.boolean ? "on" : "off");
        if (m->shown) status = publish(m, error, sizeof error);
    } else if (strcmp(item->type, "PauseMusic") == 0) {
        m->playing = false;
        snprintf(message, sizeof message, "%s", item->title);
        if (m->shown) status = publish(m, error, sizeof error);
    } else if (strcmp(item->type, "SearchMusic") == 0 || strcmp(item->type, "AddMusic") == 0) {
        snprintf(message, sizeof message, "%s", item->title);
    } else {
        snprintf(message, sizeof message,
                 "Music has no quick action of type '%s' (it has PlayMusic, PauseMusic, SearchMusic, AddMusic)",
                 item->type);
        m->host->complete(m->host->context, completion, false, message);
        return;
    }

    if (status == QA_STATUS_OK && clear_argument != NULL && clear_argument->u.boolean) {
        status = clear(m, error, sizeof error);
        if (status == QA_STATUS_OK) {
            m->shown = false;
            save_state(m);
            strncat(message, " (quick actions cleared)", sizeof message - strlen(message) - 1);
        }
    }
    if (status != QA_STATUS_OK) {
        snprintf(message, sizeof message, "cannot update the quick actions: %s", error);
        m->host->complete(m->host->context, completion, false, message);
        return;
    }
    m->host->complete(m->host->context, completion, true, message);
}

static void music_will_resign(void *state) {
    music *m = state;
    char error[QA_ERROR_BUFFER_SIZE] = "";
    if (publish(m, error, sizeof error) != QA_STATUS_OK) {
        music_log(m, QA_LOG_ERROR, "music: cannot set the dynamic items: %s", error);
        return;
    }
    m->shown = true;
    save_state(m);
}

QA_PLUGIN_EXPORT const qa_plugin *quickactions_plugin_entry(void) {
    /* launch is NULL: a launch item goes on to perform, like any other. */
    static const qa_plugin plugin = QA_PLUGIN_DESCRIPTOR(
        .name = "Music",
        .init = music_init,
        .perform = music_perform,
        .will_resign = music_will_resign);
    return &plugin;
}
