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
QA_LAYOUT_CHECK(item_size, sizeof(qa_item) == 64);
#endif
