#ifndef QUICKACTIONS_CDBUS_SHIM_H
#define QUICKACTIONS_CDBUS_SHIM_H
/* The one door from Swift to libdbus-1. Only the DBus module imports it.
 * epoll and eventfd come along because the DBus module's event loop drives
 * libdbus with them, and Glibc's Swift module does not export them. */
#include <dbus/dbus.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#endif
