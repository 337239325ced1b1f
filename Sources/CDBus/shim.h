#ifndef QUICKACTIONS_CDBUS_SHIM_H
#define QUICKACTIONS_CDBUS_SHIM_H
/* The one door from Swift to libdbus-1. Only the DBus module imports it. */
#include <dbus/dbus.h>
#endif
