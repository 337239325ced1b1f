/*
 * qa-bench-relay — the benchmark's floor for an isolated broker: the least any broker that
 * runs plugins in processes of their own can cost, one extra hop, directly on libdbus in C.
 *
 *   qa-bench-relay [--message TEXT] ADDRESS NAME
 *
 * Owns NAME on the bus at ADDRESS, listens on a private peer-to-peer address (a Unix socket
 * in a fresh 0700 folder), starts itself as the host ("qa-bench-relay host PEER-ADDRESS"),
 * and then forwards every
 *   org.quickactions.Broker1.Perform(s app_id, s type, a{sv} options)
 * to the host as org.quickactions.Host1.Perform with the same arguments; the host answers
 * at once with (true, {}), or with --message (true, {"message": <TEXT>}), and the relay
 * answers the caller with the host's values plus "activation": (true, {"message": <TEXT>,
 * "activation": <"resume">}) when the host's answer arrives. That is the broker's own reply
 * for a plugin in a host that completes with TEXT (FloorReplyTests): the bus and the client
 * carry the same bytes for the relay as for the broker's apps it is the mark of.
 * Both processes are single-threaded and poll their connections; a reply leaves at once.
 *
 * Exit codes: 0 when the bus closed, 1 on a setup error, 2 on a usage error.
 */
#include <dbus/dbus.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

static DBusConnection *bus;
static DBusConnection *peer;

/* Reads and dispatches what `connection` has, without blocking. */
static void service(DBusConnection *connection) {
    dbus_connection_read_write(connection, 0);
    while (dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS) {
    }
}

static void send_now(DBusConnection *connection, DBusMessage *message) {
    dbus_connection_send(connection, message, NULL);
    dbus_connection_flush(connection);
}

/* ── Host ──────────────────────────────────────────────────────────── */

/* The host's --message TEXT, or NULL for an empty result. */
static const char *host_message;

static DBusHandlerResult host_filter(DBusConnection *connection, DBusMessage *message, void *data) {
    (void)data;
    if (dbus_message_get_type(message) != DBUS_MESSAGE_TYPE_METHOD_CALL) return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
    DBusMessage *reply = dbus_message_new_method_return(message);
    if (reply == NULL) return DBUS_HANDLER_RESULT_NEED_MEMORY;
    DBusMessageIter iter, dict, entry, variant;
    dbus_bool_t success = TRUE;
    const char *key = "message", *text = host_message;
    dbus_message_iter_init_append(reply, &iter);
    dbus_message_iter_append_basic(&iter, DBUS_TYPE_BOOLEAN, &success);
    dbus_message_iter_open_container(&iter, DBUS_TYPE_ARRAY, "{sv}", &dict);
    if (text != NULL) {
        dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
        dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &key);
        dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "s", &variant);
        dbus_message_iter_append_basic(&variant, DBUS_TYPE_STRING, &text);
        dbus_message_iter_close_container(&entry, &variant);
        dbus_message_iter_close_container(&dict, &entry);
    }
    dbus_message_iter_close_container(&iter, &dict);
    send_now(connection, reply);
    dbus_message_unref(reply);
    return DBUS_HANDLER_RESULT_HANDLED;
}

static int run_host(const char *address, const char *text) {
    host_message = text;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *connection = dbus_connection_open_private(address, &error);
    if (connection == NULL) {
        fprintf(stderr, "qa-bench-relay host: %s\n", error.message);
        return 1;
    }
    dbus_connection_add_filter(connection, host_filter, NULL, NULL);
    while (dbus_connection_read_write_dispatch(connection, -1)) {
    }
    return 0;
}

/* ── Relay ─────────────────────────────────────────────────────────── */

/* The host answered: answer the caller with its values plus "activation". */
static void host_answered(DBusPendingCall *pending, void *data) {
    DBusMessage *call = data;
    DBusMessage *answer = dbus_pending_call_steal_reply(pending);
    DBusMessage *reply;
    if (answer == NULL || dbus_message_get_type(answer) != DBUS_MESSAGE_TYPE_METHOD_RETURN) {
        reply = dbus_message_new_error(call, "org.quickactions.Error.PluginCrashed", "the host did not answer");
    } else {
        reply = dbus_message_new_method_return(call);
        DBusMessageIter in, out, in_dict, out_dict, in_entry, out_entry, variant;
        dbus_message_iter_init(answer, &in);
        dbus_message_iter_init_append(reply, &out);
        dbus_bool_t success = FALSE;
        dbus_message_iter_get_basic(&in, &success);
        dbus_message_iter_append_basic(&out, DBUS_TYPE_BOOLEAN, &success);
        dbus_message_iter_next(&in);
        dbus_message_iter_open_container(&out, DBUS_TYPE_ARRAY, "{sv}", &out_dict);
        dbus_message_iter_recurse(&in, &in_dict);
        while (dbus_message_iter_get_arg_type(&in_dict) == DBUS_TYPE_DICT_ENTRY) {
            const char *key, *text;
            DBusMessageIter in_variant;
            dbus_message_iter_recurse(&in_dict, &in_entry);
            dbus_message_iter_get_basic(&in_entry, &key);
            dbus_message_iter_next(&in_entry);
            dbus_message_iter_recurse(&in_entry, &in_variant);
            if (dbus_message_iter_get_arg_type(&in_variant) == DBUS_TYPE_STRING) {
                dbus_message_iter_get_basic(&in_variant, &text);
                dbus_message_iter_open_container(&out_dict, DBUS_TYPE_DICT_ENTRY, NULL, &out_entry);
                dbus_message_iter_append_basic(&out_entry, DBUS_TYPE_STRING, &key);
                dbus_message_iter_open_container(&out_entry, DBUS_TYPE_VARIANT, "s", &variant);
                dbus_message_iter_append_basic(&variant, DBUS_TYPE_STRING, &text);
                dbus_message_iter_close_container(&out_entry, &variant);
                dbus_message_iter_close_container(&out_dict, &out_entry);
            }
            dbus_message_iter_next(&in_dict);
        }
        const char *key = "activation", *resume = "resume";
        dbus_message_iter_open_container(&out_dict, DBUS_TYPE_DICT_ENTRY, NULL, &out_entry);
        dbus_message_iter_append_basic(&out_entry, DBUS_TYPE_STRING, &key);
        dbus_message_iter_open_container(&out_entry, DBUS_TYPE_VARIANT, "s", &variant);
        dbus_message_iter_append_basic(&variant, DBUS_TYPE_STRING, &resume);
        dbus_message_iter_close_container(&out_entry, &variant);
        dbus_message_iter_close_container(&out_dict, &out_entry);
        dbus_message_iter_close_container(&out, &out_dict);
    }
    if (reply != NULL) {
        send_now(bus, reply);
        dbus_message_unref(reply);
    }
    if (answer != NULL) dbus_message_unref(answer);
    dbus_pending_call_unref(pending);
}

static DBusHandlerResult relay_filter(DBusConnection *connection, DBusMessage *message, void *data) {
    (void)connection;
    (void)data;
    if (!dbus_message_is_method_call(message, "org.quickactions.Broker1", "Perform")) {
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
    }
    if (peer == NULL) return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
    DBusMessage *forward = dbus_message_new_method_call(NULL, "/org/quickactions/Host1", "org.quickactions.Host1", "Perform");
    if (forward == NULL) return DBUS_HANDLER_RESULT_NEED_MEMORY;
    /* The same arguments: a copy of the body. */
    DBusMessage *copy = dbus_message_copy(message);
    DBusMessageIter from, to;
    dbus_message_iter_init(copy, &from);
    dbus_message_iter_init_append(forward, &to);
    int type;
    while ((type = dbus_message_iter_get_arg_type(&from)) != DBUS_TYPE_INVALID) {
        if (type == DBUS_TYPE_STRING) {
            const char *text;
            dbus_message_iter_get_basic(&from, &text);
            dbus_message_iter_append_basic(&to, DBUS_TYPE_STRING, &text);
        }
        dbus_message_iter_next(&from);
    }
    dbus_message_unref(copy);
    DBusPendingCall *pending = NULL;
    if (!dbus_connection_send_with_reply(peer, forward, &pending, DBUS_TIMEOUT_INFINITE) || pending == NULL) {
        dbus_message_unref(forward);
        return DBUS_HANDLER_RESULT_NEED_MEMORY;
    }
    dbus_connection_flush(peer);
    dbus_message_ref(message);
    dbus_pending_call_set_notify(pending, host_answered, message, (DBusFreeFunction)dbus_message_unref);
    dbus_message_unref(forward);
    return DBUS_HANDLER_RESULT_HANDLED;
}

/* The server's watches, kept until the host connected. */
static DBusWatch *server_watches[8];
static int server_watch_count;

static dbus_bool_t add_server_watch(DBusWatch *watch, void *data) {
    (void)data;
    if (server_watch_count < 8) server_watches[server_watch_count++] = watch;
    return TRUE;
}

static void remove_server_watch(DBusWatch *watch, void *data) {
    (void)data;
    for (int i = 0; i < server_watch_count; i++) {
        if (server_watches[i] == watch) server_watches[i] = server_watches[--server_watch_count];
    }
}

static void new_connection(DBusServer *server, DBusConnection *connection, void *data) {
    (void)server;
    (void)data;
    if (peer != NULL) return;
    dbus_connection_ref(connection);
    peer = connection;
}

int main(int argc, char **argv) {
    if ((argc == 3 || argc == 4) && strcmp(argv[1], "host") == 0) return run_host(argv[2], argc == 4 ? argv[3] : NULL);
    const char *message = NULL;
    if (argc == 5 && strcmp(argv[1], "--message") == 0) {
        message = argv[2];
        argv += 2;
        argc -= 2;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: qa-bench-relay [--message TEXT] ADDRESS NAME\n");
        return 2;
    }
    DBusError error;
    dbus_error_init(&error);
    char folder[] = "/tmp/qa-relay-XXXXXX";
    if (mkdtemp(folder) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    char listen[128];
    snprintf(listen, sizeof listen, "unix:path=%s/socket", folder);
    DBusServer *server = dbus_server_listen(listen, &error);
    if (server == NULL) {
        fprintf(stderr, "qa-bench-relay: %s\n", error.message);
        return 1;
    }
    dbus_server_set_new_connection_function(server, new_connection, NULL, NULL);
    char *address = dbus_server_get_address(server);
    /* Its own path, read before fork: valgrind answers readlink of /proc/self/exe with the
     * program it runs, so `valgrind --trace-children=yes` profiles the host too. */
    char self[4096];
    ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
    if (length <= 0) {
        perror("readlink /proc/self/exe");
        return 1;
    }
    self[length] = '\0';
    pid_t host = fork();
    if (host == 0) {
        execl(self, argv[0], "host", address, message, (char *)NULL);
        _exit(127);
    }
    bus = dbus_connection_open_private(argv[1], &error);
    if (bus == NULL || !dbus_bus_register(bus, &error)) {
        fprintf(stderr, "qa-bench-relay: %s\n", error.message);
        return 1;
    }
    /* Accept the host's connection: poll the server's socket until it connected, then
     * its connection until it is authenticated. */
    dbus_server_set_watch_functions(server, add_server_watch, remove_server_watch, NULL, NULL, NULL);
    for (int tries = 0; peer == NULL && tries < 1000; tries++) {
        for (int i = 0; i < server_watch_count && peer == NULL; i++) {
            struct pollfd one = {dbus_watch_get_unix_fd(server_watches[i]), POLLIN, 0};
            if (poll(&one, 1, 10) > 0) dbus_watch_handle(server_watches[i], DBUS_WATCH_READABLE);
        }
    }
    for (int tries = 0; peer != NULL && !dbus_connection_get_is_authenticated(peer) && tries < 1000; tries++) {
        dbus_connection_read_write(peer, 10);
    }
    if (peer == NULL || !dbus_connection_get_is_authenticated(peer)) {
        fprintf(stderr, "qa-bench-relay: the host did not connect\n");
        return 1;
    }
    dbus_connection_add_filter(bus, relay_filter, NULL, NULL);
    if (dbus_bus_request_name(bus, argv[2], DBUS_NAME_FLAG_DO_NOT_QUEUE, &error) != DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER) {
        fprintf(stderr, "qa-bench-relay: cannot own %s\n", argv[2]);
        return 1;
    }
    int fds[2];
    dbus_connection_get_unix_fd(bus, &fds[0]);
    dbus_connection_get_unix_fd(peer, &fds[1]);
    struct pollfd polls[2] = {{fds[0], POLLIN, 0}, {fds[1], POLLIN, 0}};
    while (dbus_connection_get_is_connected(bus)) {
        service(bus);
        service(peer);
        if (poll(polls, 2, -1) < 0) continue;
    }
    kill(host, SIGKILL);
    return 0;
}
