import DBus
import Foundation

/// Proves, for every method of an ``Interface``, that its introspection, its
/// declared signature and what its handler decodes are one:
///
/// 1. the interface is exported on a private bus and GDBus reads its
///    introspection (`gdbus introspect --xml`, parsed by python3's
///    xml.etree), so the XML is checked by a parser we did not write; each
///    method's in and out arguments there (names and types) must be exactly
///    the declared ones;
/// 2. the method must be typed (``Method/isTyped``): a `[Value]` handler
///    re-matches its arguments by hand and can drift from its declaration;
/// 3. a call body built from the introspected input signature, with sample
///    values of every type in it, must be decoded by the handler's own
///    decoding (``Method/decodedArguments(of:)``, the handler not run) into
///    exactly those values;
/// 4. a body of another signature must be refused with InvalidArgs naming
///    both signatures.
///
/// Returns the problems found, one line each, naming the method; empty
/// when the proof holds.
public enum InterfaceProof {
    public static func problems(_ interface: Interface, bus: TestBus) async throws -> [String] {
        let path: ObjectPath = "/org/quickactions/Proof"
        let server = try Connection(.address(bus.address))
        defer { server.close() }
        try server.export([interface], at: path)
        let introspected = try await introspect(interface.name, of: server.uniqueName, at: path, bus: bus)

        var problems: [String] = []
        for method in interface.methods {
            let label = "\(interface.name.rawValue).\(method.name.rawValue)"
            guard let seen = introspected[method.name.rawValue] else {
                problems.append("\(label): missing from the introspection GDBus read")
                continue
            }
            let declaredIn = method.inputs.map { "\($0.name):\($0.type.signature)" }
            let declaredOut = method.outputs.map { "\($0.name):\($0.type.signature)" }
            if seen.inputs != declaredIn {
                problems.append("\(label): introspection has inputs \(seen.inputs), the declaration \(declaredIn)")
            }
            if seen.outputs != declaredOut {
                problems.append("\(label): introspection has outputs \(seen.outputs), the declaration \(declaredOut)")
            }
            guard method.isTyped else {
                problems.append("\(label): its handler decodes [Value] by hand, not the declared types")
                continue
            }
            let signature = seen.inputs.map { String($0.split(separator: ":", maxSplits: 1).last ?? "") }.joined()
            problems += checkDecoding(method, label: label, signature: signature, interface: interface.name)
        }
        for name in introspected.keys where !interface.methods.contains(where: { $0.name.rawValue == name }) {
            problems.append("\(interface.name.rawValue).\(name): introspected but not declared")
        }
        return problems
    }

    private static func checkDecoding(
        _ method: Method, label: String, signature: String, interface: InterfaceName
    ) -> [String] {
        var problems: [String] = []
        do {
            let types = try Signature(signature).types
            let sample = types.map { SampleValues.value(of: $0) }
            let message = try Message.methodCall(
                destination: nil, path: "/org/quickactions/Proof", interface: interface, member: method.name)
            try message.append(sample)
            let decoded = try method.decodedArguments(of: message)?.map(SampleValues.normalized)
            if decoded != sample.map(SampleValues.normalized) {
                problems.append("\(label): its handler decodes \(String(describing: decoded)) from \(sample)")
            }
        } catch {
            problems.append("\(label): its handler cannot decode a body of signature \"\(signature)\": \(error)")
        }
        // Another signature: one argument more, of type "s" (or "i" after a string).
        let wrong = signature + (signature.hasSuffix("s") ? "i" : "s")
        do {
            let message = try Message.methodCall(
                destination: nil, path: "/org/quickactions/Proof", interface: interface, member: method.name)
            try message.append(try Signature(wrong).types.map { SampleValues.value(of: $0) })
            _ = try method.decodedArguments(of: message)
            problems.append("\(label): its handler accepted a body of signature \"\(wrong)\"")
        } catch let error as DBusError {
            if error.name != .invalidArgs || !error.message.contains("\"\(signature)\"")
                || !error.message.contains("\"\(wrong)\"") {
                problems.append("\(label): a body of signature \"\(wrong)\" was refused with \(error), "
                    + "not InvalidArgs naming both signatures")
            }
        } catch {
            problems.append("\(label): building a body of signature \"\(wrong)\" failed: \(error)")
        }
        return problems
    }

    struct Introspected {
        var inputs: [String] = []
        var outputs: [String] = []
    }

    /// Each method's arguments as "name:type", as GDBus reads our introspection.
    private static func introspect(
        _ interface: InterfaceName, of destination: String, at path: ObjectPath, bus: TestBus
    ) async throws -> [String: Introspected] {
        let xml = try await Command.run("gdbus", [
            "introspect", "--xml", "--address", bus.address, "--dest", destination, "--object-path", path.rawValue,
        ])
        guard xml.status == 0 else { throw TestSupportError("gdbus introspect failed: \(xml)") }
        // GLib's own parser checks the XML; python prints its methods' arguments.
        let script = """
            import sys, xml.etree.ElementTree as tree, gi
            gi.require_version("Gio", "2.0")
            from gi.repository import Gio
            text = sys.stdin.read()
            Gio.DBusNodeInfo.new_for_xml(text)
            for interface in tree.fromstring(text).findall("interface"):
                if interface.get("name") != sys.argv[1]:
                    continue
                for method in interface.findall("method"):
                    for arg in method.findall("arg"):
                        print(method.get("name"), arg.get("direction") or "in", arg.get("name"), arg.get("type"))
                    print(method.get("name"), "-", "-", "-")
            """
        let parsed = try await Command.run("/usr/bin/python3", ["-c", script, interface.rawValue], input: xml.stdout)
        guard parsed.status == 0 else { throw TestSupportError("reading the introspection failed: \(parsed)") }
        var methods: [String: Introspected] = [:]
        for line in parsed.stdout.split(separator: "\n") {
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count == 4 else { continue }
            var method = methods[fields[0]] ?? Introspected()
            switch fields[1] {
            case "in": method.inputs.append("\(fields[2]):\(fields[3])")
            case "out": method.outputs.append("\(fields[2]):\(fields[3])")
            default: break
            }
            methods[fields[0]] = method
        }
        return methods
    }
}

/// A sample value of any D-Bus type, with distinct dictionary keys, for
/// bodies built from a signature alone.
public enum SampleValues {
    public static func value(of type: DBusType) -> Value {
        switch type {
        case .byte: .byte(7)
        case .boolean: .boolean(true)
        case .int16: .int16(-16)
        case .uint16: .uint16(16)
        case .int32: .int32(-32)
        case .uint32: .uint32(32)
        case .int64: .int64(-64)
        case .uint64: .uint64(64)
        case .double: .double(2.5)
        case .string: .string("sample")
        case .objectPath: .objectPath("/sample/path")
        case .signature: .signature("a{sv}")
        case .unixFD: .uint32(0)
        case .variant: .variant(.string("in a variant"))
        case .array(let element): .array(element, [value(of: element), value(of: element)])
        case .dictionary(let key, let valueType):
            .dictionary(key: key, value: valueType, [
                DictionaryEntry(self.key(of: key, 0), value(of: valueType)),
                DictionaryEntry(self.key(of: key, 1), value(of: valueType)),
            ])
        case .structure(let fields): .structure(fields.map { value(of: $0) })
        }
    }

    /// `value` with every dictionary's entries in key order (Swift
    /// dictionaries keep none), for comparing values that went through one.
    public static func normalized(_ value: Value) -> Value {
        switch value {
        case .array(let element, let values): .array(element, values.map(normalized))
        case .dictionary(let key, let valueType, let entries):
            .dictionary(key: key, value: valueType, entries
                .map { DictionaryEntry(normalized($0.key), normalized($0.value)) }
                .sorted { $0.key.description < $1.key.description })
        case .structure(let fields): .structure(fields.map(normalized))
        case .variant(let inner): .variant(normalized(inner))
        default: value
        }
    }

    /// The `index`th of two distinct keys of a basic type.
    static func key(of type: DBusType, _ index: Int) -> Value {
        switch type {
        case .byte: .byte(UInt8(index))
        case .boolean: .boolean(index == 1)
        case .int16: .int16(Int16(index))
        case .uint16: .uint16(UInt16(index))
        case .int32: .int32(Int32(index))
        case .uint32: .uint32(UInt32(index))
        case .int64: .int64(Int64(index))
        case .uint64: .uint64(UInt64(index))
        case .double: .double(Double(index))
        case .objectPath: .objectPath(index == 0 ? "/a" : "/b")
        case .signature: .signature(index == 0 ? "s" : "i")
        default: .string("key\(index)")
        }
    }
}
