/*
 * Compile-time checks of the ABI's layout on this platform. Nothing here is
 * linked into behaviour; a plugin or host that compiles this file agrees with
 * the header about the frozen value structs and where every field of the
 * versioned structs sits. A versioned struct's total size is deliberately not
 * pinned: the header promises to append fields, so only the offsets of the
 * fields that exist are a promise.
 */
#include "quickactions_plugin.h"

/* C99 has no _Static_assert: a negative array size stops the build. */
#define QA_LAYOUT_CHECK(name, condition) typedef char qa_layout_check_##name[(condition) ? 1 : -1]

/* The versioned structs start with struct_size, then (descriptor and host
 * table) the version, so any reader can check both before reading more. */
QA_LAYOUT_CHECK(plugin_size_first, offsetof(qa_plugin, struct_size) == 0);
QA_LAYOUT_CHECK(plugin_major_second, offsetof(qa_plugin, abi_major) == sizeof(size_t));
QA_LAYOUT_CHECK(host_size_first, offsetof(qa_host, struct_size) == 0);
QA_LAYOUT_CHECK(host_major_second, offsetof(qa_host, abi_major) == sizeof(size_t));
QA_LAYOUT_CHECK(limits_size_first, offsetof(qa_limits, struct_size) == 0);
QA_LAYOUT_CHECK(item_size_first, offsetof(qa_item, struct_size) == 0);
QA_LAYOUT_CHECK(request_size_first, offsetof(qa_request, struct_size) == 0);

/* On LP64: the value structs are frozen for major version 1 (they are laid
 * out in arrays), so their sizes are pinned; a change there is a new major.
 * The versioned structs grow by appending: every field of 1.0, 1.1 and 1.2
 * keeps its offset, and each later field starts at or past where the
 * earlier ones end. QuickActionsABITests' ABILayoutTests pin the same table
 * from Swift. */
#if UINTPTR_MAX == 0xffffffffffffffffu
QA_LAYOUT_CHECK(value_size, sizeof(qa_value) == 24);
QA_LAYOUT_CHECK(entry_size, sizeof(qa_entry) == 32);

QA_LAYOUT_CHECK(plugin_name, offsetof(qa_plugin, name) == 16);
QA_LAYOUT_CHECK(plugin_init, offsetof(qa_plugin, init) == 24);
QA_LAYOUT_CHECK(plugin_launch, offsetof(qa_plugin, launch) == 32);
QA_LAYOUT_CHECK(plugin_perform, offsetof(qa_plugin, perform) == 40);
QA_LAYOUT_CHECK(plugin_will_resign, offsetof(qa_plugin, will_resign) == 48);

QA_LAYOUT_CHECK(host_context, offsetof(qa_host, context) == 16);
QA_LAYOUT_CHECK(host_set_dynamic_items, offsetof(qa_host, set_dynamic_items) == 24);
QA_LAYOUT_CHECK(host_log, offsetof(qa_host, log) == 32);
QA_LAYOUT_CHECK(host_app_id, offsetof(qa_host, app_id) == 40);
QA_LAYOUT_CHECK(host_data_directory, offsetof(qa_host, data_directory) == 48);
QA_LAYOUT_CHECK(host_complete, offsetof(qa_host, complete) == 56);
QA_LAYOUT_CHECK(host_get_dynamic_items, offsetof(qa_host, get_dynamic_items) == 64); /* 1.1 */
QA_LAYOUT_CHECK(host_limits, offsetof(qa_host, limits) == 72);                       /* 1.2 */

QA_LAYOUT_CHECK(item_type, offsetof(qa_item, type) == 8);
QA_LAYOUT_CHECK(item_title, offsetof(qa_item, title) == 16);
QA_LAYOUT_CHECK(item_subtitle, offsetof(qa_item, subtitle) == 24);
QA_LAYOUT_CHECK(item_icon_kind, offsetof(qa_item, icon_kind) == 32);
QA_LAYOUT_CHECK(item_icon, offsetof(qa_item, icon) == 40);
QA_LAYOUT_CHECK(item_user_info, offsetof(qa_item, user_info) == 48);
/* ABI 1.0's qa_item ends here, where a 1.0 plugin's struct_size stops. */
QA_LAYOUT_CHECK(item_abi10_end, offsetof(qa_item, user_info) + sizeof(qa_dictionary) == 64);
QA_LAYOUT_CHECK(item_id, offsetof(qa_item, id) == 64); /* 1.1 */

QA_LAYOUT_CHECK(request_item, offsetof(qa_request, item) == 8);
QA_LAYOUT_CHECK(request_resolved_icon, offsetof(qa_request, resolved_icon) == 16);
QA_LAYOUT_CHECK(request_arguments, offsetof(qa_request, arguments) == 24);
QA_LAYOUT_CHECK(request_activation_token, offsetof(qa_request, activation_token) == 40);
/* ABI 1.0's qa_request ends here, where a 1.0-1.2 host's struct_size stops. */
QA_LAYOUT_CHECK(request_abi10_end, offsetof(qa_request, activation_token) + sizeof(const char *) == 48);
QA_LAYOUT_CHECK(request_request_id, offsetof(qa_request, request_id) == 48); /* 1.3 */

/* qa_limits (1.2): uint32_t fields one after another. */
QA_LAYOUT_CHECK(limits_max_items, offsetof(qa_limits, max_items) == 8);
QA_LAYOUT_CHECK(limits_call_max_items, offsetof(qa_limits, call_max_items) == 52);
#endif
