/*
 * Compile-time checks of the ABI's layout on this platform. Nothing here is
 * linked into behaviour; a plugin or host that compiles this file agrees with
 * the header about the frozen value structs and the first fields of every
 * versioned struct.
 */
#include "quickactions_plugin.h"

/* C99 has no _Static_assert: a negative array size stops the build. */
#define QA_LAYOUT_CHECK(name, condition) typedef char qa_layout_check_##name[(condition) ? 1 : -1]

/* The versioned structs start with struct_size, then (descriptor and host
 * table) the version, so any reader can check both before reading more. */
QA_LAYOUT_CHECK(plugin_size_first, offsetof(qa_plugin, struct_size) == 0);
QA_LAYOUT_CHECK(plugin_major_second, offsetof(qa_plugin, abi_major) == sizeof(size_t));
QA_LAYOUT_CHECK(host_size_first, offsetof(qa_host, struct_size) == 0);
QA_LAYOUT_CHECK(item_size_first, offsetof(qa_item, struct_size) == 0);
QA_LAYOUT_CHECK(request_size_first, offsetof(qa_request, struct_size) == 0);

/* The value structs are frozen for major version 1 (they are laid out in
 * arrays). On LP64 these are their sizes; a change here is a new major. */
#if UINTPTR_MAX == 0xffffffffffffffffu
QA_LAYOUT_CHECK(value_size, sizeof(qa_value) == 24);
QA_LAYOUT_CHECK(entry_size, sizeof(qa_entry) == 32);
/* qa_item grows by appending: ABI 1.0's fields end at 64 bytes, where a 1.0
 * plugin's struct_size stops, and every later field starts at or past it. */
QA_LAYOUT_CHECK(item_abi10_end, offsetof(qa_item, user_info) + sizeof(qa_dictionary) == 64);
QA_LAYOUT_CHECK(item_id_appended, offsetof(qa_item, id) == 64);
#endif
