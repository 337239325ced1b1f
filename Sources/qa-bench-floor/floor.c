/*
 * qa-bench-floor — the benchmark's floor: the fastest Perform responder we
 * can write, directly on libdbus in C, single-threaded, with the idiom the
 * libdbus documentation gives (dbus_connection_read_write_dispatch).
 *
 *   qa-bench-floor ADDRESS NAME
 *
 * Connects to the bus at ADDRESS, owns NAME, and answers every
 *   org.quickactions.Broker1.Perform(s app_id, s type, a{sv} options)
 * on any object path at once with (true, {"activation": <"resume">}): the
 * same reply shape the broker gives for a warm plugin, so both answers cost
 * the bus the same. Any other method call gets UnknownMethod; a Perform with
 * another signature gets InvalidArgs. Runs until the bus goes away or a
 * signal ends it. Exit codes: 0 when the bus closed, 1 on a setup error,
 * 2 on a usage error.
 */
#include <dbus/dbus.h>
#include <stdio.h>
#include <string.h>

static const char *const interface_name = "org.quickactions.Broker1";

static int append_result(DBusMessage *reply) {
    DBusMessageIter args, dict, entry, variant;
    dbus_bool_t success = TRUE;
    const char *key = "activation";
    const char *value = "resume";
    dbus_message_iter_init_append(reply, &args);
    if (!dbus_message_iter_append_basic(&args, DBUS_TYPE_BOOLEAN, &success)) return 0;
    if (!dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "{sv}", &dict)) return 0;
    if (!dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry)) goto abandon_dict;
    if (!dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &key)) goto abandon_entry;
    if (!dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "s", &variant)) goto abandon_entry;
    if (!dbus_message_iter_append_basic(&variant, DBUS_TYPE_STRING, &value)) {
        dbus_message_iter_abandon_container(&entry, &variant);
        goto abandon_entry;
    }
    if (!dbus_message_iter_close_container(&entry, &variant)) goto abandon_entry;
    if (!dbus_message_iter_close_container(&dict, &entry)) goto abandon_dict;
    return dbus_message_iter_close_container(&args, &dict);
abandon_entry:
    dbus_message_iter_abandon_container(&dict, &entry);
abandon_dict:
    dbus_message_iter_abandon_container(&args, &dict);
    return 0;
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
    if (!dbus_message_is_method_call(message, interface_name, "Perform")) {
        reply = dbus_message_new_error(message, DBUS_ERROR_UNKNOWN_METHOD, "the floor answers Perform only");
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
    if (argc != 3) {
        fprintf(stderr, "usage: qa-bench-floor ADDRESS NAME\n");
        return 2;
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
