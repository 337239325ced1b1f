#!/usr/bin/python3
"""Sends Perform calls whose app id is raw bytes, by speaking the D-Bus wire
protocol itself: libdbus, sd-bus and GDBus all refuse to marshal a string
that is not valid UTF-8, so no ordinary client can even try.

Usage: raw_strings.py HEX...   (bus: DBUS_SESSION_BUS_ADDRESS)
Each HEX is the app id's bytes. For each, on a fresh connection: EXTERNAL
auth, Hello, then Perform(<bytes>, "fast", {}). Prints one JSON line:
{"bytes": HEX, "outcome": "error <name>: <message>" | "return" |
"disconnected"}.
"""
import json
import os
import socket
import struct
import sys

METHOD_CALL, METHOD_RETURN, ERROR = 1, 2, 3


def pad(buffer, alignment):
    buffer.extend(b"\0" * (-len(buffer) % alignment))


def put_string(buffer, raw):
    pad(buffer, 4)
    buffer.extend(struct.pack("<I", len(raw)) + raw + b"\0")


def put_signature(buffer, text):
    buffer.extend(bytes([len(text)]) + text.encode() + b"\0")


def method_call(serial, destination, path, interface, member, signature, body):
    fields = bytearray()
    for code, kind, value in [(1, "o", path), (2, "s", interface), (3, "s", member), (6, "s", destination),
                              (8, "g", signature)]:
        if value is None:
            continue
        pad(fields, 8)
        fields.append(code)
        put_signature(fields, kind)
        if kind == "g":
            put_signature(fields, value)
        else:
            # Offsets inside the header array are relative to the message start (16).
            shifted = bytearray(b"\0" * ((16 + len(fields)) % 8))
            start = len(shifted)
            put_string(shifted, value.encode())
            fields.extend(shifted[start:])
    header = bytearray(b"l" + bytes([METHOD_CALL, 0, 1]) + struct.pack("<III", len(body), serial, len(fields)))
    header.extend(fields)
    pad(header, 8)
    return bytes(header) + body


def perform_body(app_id):
    body = bytearray()
    put_string(body, app_id)
    put_string(body, b"fast")
    pad(body, 4)
    body.extend(struct.pack("<I", 0))
    pad(body, 8)
    return bytes(body)


def read_message(sock):
    def exactly(count):
        data = b""
        while len(data) < count:
            chunk = sock.recv(count - len(data))
            if not chunk:
                raise ConnectionError("closed")
            data += chunk
        return data

    fixed = exactly(16)
    body_length, _serial, fields_length = struct.unpack("<III", fixed[4:16])
    rest = exactly(fields_length + (-(16 + fields_length) % 8) + body_length)
    fields = rest[:fields_length]
    body = rest[fields_length + (-(16 + fields_length) % 8):]
    info = {"type": fixed[1]}
    offset = 0
    while offset < len(fields):
        offset += -(16 + offset) % 8
        code = fields[offset]
        sig_length = fields[offset + 1]
        kind = fields[offset + 2:offset + 2 + sig_length].decode()
        offset += 3 + sig_length
        if kind in ("s", "o"):
            offset += -(16 + offset) % 4
            (length,) = struct.unpack("<I", fields[offset:offset + 4])
            info[code] = fields[offset + 4:offset + 4 + length].decode("utf-8", "replace")
            offset += 5 + length
        elif kind == "g":
            length = fields[offset]
            info[code] = fields[offset + 1:offset + 1 + length].decode()
            offset += 2 + length
        elif kind == "u":
            offset += -(16 + offset) % 4
            (info[code],) = struct.unpack("<I", fields[offset:offset + 4])
            offset += 4
        else:
            raise ValueError(f"header field of type {kind}")
    if info["type"] == ERROR and info.get(8, "").startswith("s"):
        (length,) = struct.unpack("<I", body[:4])
        info["message"] = body[4:4 + length].decode("utf-8", "replace")
    return info


def connect(address):
    for part in address.split(";"):
        transport, _, params = part.partition(":")
        values = dict(item.split("=", 1) for item in params.split(",") if "=" in item)
        if transport != "unix":
            continue
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(10)
        sock.connect(values["path"] if "path" in values else "\0" + values["abstract"])
        sock.sendall(b"\0AUTH EXTERNAL " + str(os.getuid()).encode().hex().encode() + b"\r\n")
        if not sock.recv(4096).startswith(b"OK"):
            raise ConnectionError("authentication refused")
        sock.sendall(b"BEGIN\r\n")
        sock.sendall(method_call(1, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                 "Hello", None, b""))
        while read_message(sock).get(5) != 1:
            pass
        return sock
    raise ConnectionError(f"no unix transport in {address}")


def attempt(address, raw):
    sock = connect(address)
    try:
        sock.sendall(method_call(2, "org.quickactions.Broker1", "/org/quickactions/Broker1",
                                 "org.quickactions.Broker1", "Perform", "ssa{sv}", perform_body(raw)))
        while True:
            message = read_message(sock)
            if message.get(5) != 2:
                continue
            if message["type"] == ERROR:
                return f"error {message.get(4)}: {message.get('message', '')}"
            return "return"
    except (ConnectionError, OSError):
        return "disconnected"
    finally:
        sock.close()


address = os.environ["DBUS_SESSION_BUS_ADDRESS"]
for hexed in sys.argv[1:]:
    print(json.dumps({"bytes": hexed, "outcome": attempt(address, bytes.fromhex(hexed))}), flush=True)
