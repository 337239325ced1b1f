/* Placeholder: the plugin ABI header is written under issue 3. */
#ifndef QUICKACTIONS_PLUGIN_H
#define QUICKACTIONS_PLUGIN_H
#endif
