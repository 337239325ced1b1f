/*
 * qa-bench-floor — the benchmark's floor: the fastest Perform responder we
 * can write, directly on libdbus in C, single-threaded, with the idiom the
 * libdbus documentation gives (dbus_connection_read_write_dispatch).
 *
 *   qa-bench-floor [--message TEXT] ADDRESS NAME [LISTING]
 *
 * Connects to the bus at ADDRESS, owns NAME, and answers every
 *   org.quickactions.Broker1.Perform(s app_id, s type, a{sv} options)
 * on any object path at once with (true, {"activation": <"resume">}): the
 * same reply shape the broker gives for a warm plugin, so both answers cost
 * the bus the same. With --message, the reply also carries {"message": <TEXT>}
 * ahead of "activation", as the broker's does for a plugin that completes with
 * a message: the same bytes again, for the subjects whose plugin says one.
 *
 * With LISTING, a file holding a method return as dbus_message_marshal
 * writes it (the benchmark saves the broker's own GetAllItems reply), it
 * also answers
 *   org.quickactions.Broker1.GetAllItems(a{sv} options)
 * with a copy of that reply's body: the same bytes the broker sends, sent the
 * cheapest way (a copied message, readdressed), so the time a client waits
 * for them is what the bus and the client cost.
 *
 * Any other method call gets UnknownMethod; a call with another signature
 * gets InvalidArgs. Runs until the bus goes away or a signal ends it. Exit
 * codes: 0 when the bus closed, 1 on a setup error, 2 on a usage error.
 */
#include <dbus/dbus.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const interface_name = "org.quickactions.Broker1";

/* The GetAllItems reply to copy (a method return of our own, unsent, so
 * each copy gets its own serial), or NULL without LISTING. */
static DBusMessage *listing;
/* --message TEXT: the reply's "message", or NULL for none. */
static const char *reply_message;

/* Appends every value `from` has left to `to`, containers recursively. */
static int copy_values(DBusMessageIter *from, DBusMessageIter *to) {
    int type;
    while ((type = dbus_message_iter_get_arg_type(from)) != DBUS_TYPE_INVALID) {
        if (dbus_type_is_basic(type)) {
            DBusBasicValue value;
            dbus_message_iter_get_basic(from, &value);
            if (!dbus_message_iter_append_basic(to, type, &value)) return 0;
        } else {
            DBusMessageIter inner_from, inner_to;
            dbus_message_iter_recurse(from, &inner_from);
            char *signature = NULL;
            if (type == DBUS_TYPE_ARRAY || type == DBUS_TYPE_VARIANT) {
                signature = dbus_message_iter_get_signature(&inner_from);
                if (signature == NULL) return 0;
            }
            int opened = dbus_message_iter_open_container(to, type, signature, &inner_to);
            dbus_free(signature);
            if (!opened) return 0;
            if (!copy_values(&inner_from, &inner_to)) {
                dbus_message_iter_abandon_container(to, &inner_to);
                return 0;
            }
            if (!dbus_message_iter_close_container(to, &inner_to)) return 0;
        }
        dbus_message_iter_next(from);
    }
    return 1;
}

/* Reads a marshalled method return from `path`; NULL (and a message on
 * stderr) when the file cannot be read or holds no valid method return. */
static DBusMessage *read_listing(const char *path) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) {
        perror(path);
        return NULL;
    }
    size_t capacity = 1 << 16, length = 0;
    char *bytes = malloc(capacity);
    while (bytes != NULL) {
        length += fread(bytes + length, 1, capacity - length, file);
        if (length < capacity) break;
        char *grown = capacity <= DBUS_MAXIMUM_MESSAGE_LENGTH ? realloc(bytes, capacity * 2) : NULL;
        if (grown == NULL) {
            free(bytes);
            bytes = NULL;
            break;
        }
        bytes = grown;
        capacity *= 2;
    }
    int failed = ferror(file);
    fclose(file);
    if (bytes == NULL || failed) {
        fprintf(stderr, "qa-bench-floor: cannot read %s (or it is too large)\n", path);
        free(bytes);
        return NULL;
    }
    DBusError error;
    dbus_error_init(&error);
    DBusMessage *message = dbus_message_demarshal(bytes, (int)length, &error);
    free(bytes);
    if (message == NULL) {
        fprintf(stderr, "qa-bench-floor: %s holds no D-Bus message: %s\n", path, error.message);
        dbus_error_free(&error);
        return NULL;
    }
    if (dbus_message_get_type(message) != DBUS_MESSAGE_TYPE_METHOD_RETURN) {
        fprintf(stderr, "qa-bench-floor: %s holds a message that is not a method return\n", path);
        dbus_message_unref(message);
        return NULL;
    }
    /* The saved reply carries the broker's serial and addresses; keep only
     * its body, in a method return of our own. */
    DBusMessage *own = dbus_message_new(DBUS_MESSAGE_TYPE_METHOD_RETURN);
    int copied = 0;
    if (own != NULL) {
        DBusMessageIter from, to;
        dbus_message_iter_init_append(own, &to);
        copied = !dbus_message_iter_init(message, &from) || copy_values(&from, &to);
    }
    dbus_message_unref(message);
    if (!copied) {
        fprintf(stderr, "qa-bench-floor: out of memory copying the reply in %s\n", path);
        if (own != NULL) dbus_message_unref(own);
        return NULL;
    }
    return own;
}

/* A copy of the listing addressed as the reply to `call`. */
static DBusMessage *listing_reply(DBusMessage *call) {
    DBusMessage *reply = dbus_message_copy(listing);
    if (reply == NULL) return NULL;
    const char *sender = dbus_message_get_sender(call);
    if (!dbus_message_set_reply_serial(reply, dbus_message_get_serial(call))
        || (sender != NULL && !dbus_message_set_destination(reply, sender))) {
        dbus_message_unref(reply);
        return NULL;
    }
    return reply;
}

/* Appends {key: <value>} to the open dictionary `dict`. */
static int append_string_entry(DBusMessageIter *dict, const char *key, const char *value) {
    DBusMessageIter entry, variant;
    if (!dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry)) return 0;
    if (!dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &key)) goto abandon_entry;
    if (!dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "s", &variant)) goto abandon_entry;
    if (!dbus_message_iter_append_basic(&variant, DBUS_TYPE_STRING, &value)) {
        dbus_message_iter_abandon_container(&entry, &variant);
        goto abandon_entry;
    }
    if (!dbus_message_iter_close_container(&entry, &variant)) goto abandon_entry;
    return dbus_message_iter_close_container(dict, &entry);
abandon_entry:
    dbus_message_iter_abandon_container(dict, &entry);
    return 0;
}

static int append_result(DBusMessage *reply) {
    DBusMessageIter args, dict;
    dbus_bool_t success = TRUE;
    dbus_message_iter_init_append(reply, &args);
    if (!dbus_message_iter_append_basic(&args, DBUS_TYPE_BOOLEAN, &success)) return 0;
    if (!dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "{sv}", &dict)) return 0;
    if ((reply_message != NULL && !append_string_entry(&dict, "message", reply_message))
        || !append_string_entry(&dict, "activation", "resume")) {
        dbus_message_iter_abandon_container(&args, &dict);
        return 0;
    }
    return dbus_message_iter_close_container(&args, &dict);
}

/* Reads the two strings a Perform carries, as a real responder would. */
static int read_arguments(DBusMessage *call, const char **app_id, const char **type) {
    DBusMessageIter args;
    if (!dbus_message_has_signature(call, "ssa{sv}")) return 0;
    if (!dbus_message_iter_init(call, &args)) return 0;
    dbus_message_iter_get_basic(&args, app_id);
    if (!dbus_message_iter_next(&args)) return 0;
    dbus_message_iter_get_basic(&args, type);
    return 1;
}

static DBusHandlerResult handle(DBusConnection *connection, DBusMessage *message, void *data) {
    (void)data;
    if (dbus_message_get_type(message) != DBUS_MESSAGE_TYPE_METHOD_CALL) {
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
    }
    DBusMessage *reply;
    const char *app_id = NULL, *type = NULL;
    if (listing != NULL && dbus_message_is_method_call(message, interface_name, "GetAllItems")) {
        reply = dbus_message_has_signature(message, "a{sv}")
            ? listing_reply(message)
            : dbus_message_new_error(message, DBUS_ERROR_INVALID_ARGS, "GetAllItems takes (a{sv})");
    } else if (!dbus_message_is_method_call(message, interface_name, "Perform")) {
        reply = dbus_message_new_error(message, DBUS_ERROR_UNKNOWN_METHOD,
                                       listing ? "the floor answers Perform and GetAllItems only"
                                               : "the floor answers Perform only");
    } else if (!read_arguments(message, &app_id, &type)) {
        reply = dbus_message_new_error(message, DBUS_ERROR_INVALID_ARGS, "Perform takes (s, s, a{sv})");
    } else {
        reply = dbus_message_new_method_return(message);
        if (reply != NULL && !append_result(reply)) {
            dbus_message_unref(reply);
            reply = NULL;
        }
    }
    if (reply == NULL) return DBUS_HANDLER_RESULT_NEED_MEMORY;
    if (!dbus_message_get_no_reply(message)) dbus_connection_send(connection, reply, NULL);
    dbus_message_unref(reply);
    return DBUS_HANDLER_RESULT_HANDLED;
}

int main(int argc, char **argv) {
    if (argc >= 3 && strcmp(argv[1], "--message") == 0) {
        reply_message = argv[2];
        argc -= 2;
        argv += 2;
    }
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: qa-bench-floor [--message TEXT] ADDRESS NAME [LISTING]\n");
        return 2;
    }
    if (argc == 4 && (listing = read_listing(argv[3])) == NULL) {
        return 1;
    }
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *connection = dbus_connection_open_private(argv[1], &error);
    if (connection == NULL || !dbus_bus_register(connection, &error)) {
        fprintf(stderr, "qa-bench-floor: cannot connect to %s: %s\n", argv[1], error.message);
        return 1;
    }
    dbus_connection_set_exit_on_disconnect(connection, FALSE);
    if (!dbus_connection_add_filter(connection, handle, NULL, NULL)) {
        fprintf(stderr, "qa-bench-floor: out of memory adding the filter\n");
        return 1;
    }
    int owned = dbus_bus_request_name(connection, argv[2], DBUS_NAME_FLAG_DO_NOT_QUEUE, &error);
    if (owned != DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER) {
        fprintf(stderr, "qa-bench-floor: cannot own %s: %s\n", argv[2],
                dbus_error_is_set(&error) ? error.message : "the name is taken");
        return 1;
    }
    while (dbus_connection_read_write_dispatch(connection, -1)) {
    }
    dbus_connection_close(connection);
    dbus_connection_unref(connection);
    return 0;
}
