/// Writes introspection XML (the `org.freedesktop.DBus.Introspectable`
/// format) from interface declarations.
enum Introspection {
    static let doctype = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">

        """

    static func xml(interfaces: [Interface], children: [String]) -> String {
        var out = doctype + "<node>\n"
        for interface in interfaces {
            write(interface, into: &out)
        }
        for child in children {
            out += "  <node name=\"\(escape(child))\"/>\n"
        }
        out += "</node>\n"
        return out
    }

    private static func write(_ interface: Interface, into out: inout String) {
        out += "  <interface name=\"\(interface.name.rawValue)\">\n"
        write(interface.annotations, indent: "    ", into: &out)
        for method in interface.methods {
            out += "    <method name=\"\(method.name.rawValue)\">\n"
            write(method.annotations, indent: "      ", into: &out)
            for argument in method.inputs {
                out += "      <arg name=\"\(escape(argument.name))\" type=\"\(escape(argument.type.signature))\" direction=\"in\"/>\n"
            }
            for argument in method.outputs {
                out += "      <arg name=\"\(escape(argument.name))\" type=\"\(escape(argument.type.signature))\" direction=\"out\"/>\n"
            }
            out += "    </method>\n"
        }
        for signal in interface.signals {
            out += "    <signal name=\"\(signal.name.rawValue)\">\n"
            write(signal.annotations, indent: "      ", into: &out)
            for argument in signal.arguments {
                out += "      <arg name=\"\(escape(argument.name))\" type=\"\(escape(argument.type.signature))\"/>\n"
            }
            out += "    </signal>\n"
        }
        for property in interface.properties {
            let access = property.isWritable ? "readwrite" : "read"
            out += "    <property name=\"\(property.name.rawValue)\" type=\"\(escape(property.type.signature))\" access=\"\(access)\">\n"
            if property.changeSignal != .emits {
                out += "      <annotation name=\"org.freedesktop.DBus.Property.EmitsChangedSignal\" value=\"\(property.changeSignal.rawValue)\"/>\n"
            }
            write(property.annotations, indent: "      ", into: &out)
            out += "    </property>\n"
        }
        out += "  </interface>\n"
    }

    private static func write(_ annotations: [Annotation], indent: String, into out: inout String) {
        for annotation in annotations {
            out += "\(indent)<annotation name=\"\(escape(annotation.name))\" value=\"\(escape(annotation.value))\"/>\n"
        }
    }

    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }
}
