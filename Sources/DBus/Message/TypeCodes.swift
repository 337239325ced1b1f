/// libdbus's type codes. The C headers define them as `((int) 'y')`-style
/// macros, which Swift does not import, so they are spelled out here under
/// the same names.
let DBUS_TYPE_INVALID: Int32 = 0
let DBUS_TYPE_BYTE = Int32(UInt8(ascii: "y"))
let DBUS_TYPE_BOOLEAN = Int32(UInt8(ascii: "b"))
let DBUS_TYPE_INT16 = Int32(UInt8(ascii: "n"))
let DBUS_TYPE_UINT16 = Int32(UInt8(ascii: "q"))
let DBUS_TYPE_INT32 = Int32(UInt8(ascii: "i"))
let DBUS_TYPE_UINT32 = Int32(UInt8(ascii: "u"))
let DBUS_TYPE_INT64 = Int32(UInt8(ascii: "x"))
let DBUS_TYPE_UINT64 = Int32(UInt8(ascii: "t"))
let DBUS_TYPE_DOUBLE = Int32(UInt8(ascii: "d"))
let DBUS_TYPE_STRING = Int32(UInt8(ascii: "s"))
let DBUS_TYPE_OBJECT_PATH = Int32(UInt8(ascii: "o"))
let DBUS_TYPE_SIGNATURE = Int32(UInt8(ascii: "g"))
let DBUS_TYPE_UNIX_FD = Int32(UInt8(ascii: "h"))
let DBUS_TYPE_ARRAY = Int32(UInt8(ascii: "a"))
let DBUS_TYPE_VARIANT = Int32(UInt8(ascii: "v"))
let DBUS_TYPE_STRUCT = Int32(UInt8(ascii: "r"))
let DBUS_TYPE_DICT_ENTRY = Int32(UInt8(ascii: "e"))
