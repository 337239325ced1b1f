import DBus
