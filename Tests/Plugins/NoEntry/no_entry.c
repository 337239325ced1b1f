/* A library that exports something, but not the entry symbol: the loader
 * must report PluginLoadError.symbolMissing. */
#include <quickactions_plugin.h>

QA_PLUGIN_EXPORT int quickactions_plugin_entry_misspelt(void) { return 42; }
