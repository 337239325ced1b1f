// libFuzzer target: D-Bus value decoding and re-encoding.
//
// Built by Fuzz/run.sh together with every source of the DBus module into one binary, so the
// internal `Message(owning:)` is reachable. Each input is a marshalled message:
//
//   bytes → dbus_message_demarshal (libdbus validates it as it would off the wire)
//         → Message.arguments()   (our decoding)
//         → Value.validate()      → Message.append  → dbus_message_marshal/demarshal → arguments()
//
// Properties checked:
// 1. Nothing crashes, hangs or leaks, for any bytes.
// 2. Decoded values have the types the message's signature declares, one per complete type.
// 3. A decoded list that `validate()` accepts is appended without error (libdbus aborts the
//    process on values that break the specification, so validation must never let one
//    through), and libdbus accepts the re-marshalled message; decoding it gives the same
//    values bit for bit (doubles by bit pattern).
// 4. A list that `validate()` refuses makes `append` throw, never abort.
import CDBus
import Glibc

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDBusValues(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start, count > 0, count <= Int(Int32.max) else {
        FuzzSeedCheck.rejected("empty input")
        return 0
    }
    let input = Array(UnsafeBufferPointer(start: start, count: count))
    let message: Message
    do {
        message = try start.withMemoryRebound(to: CChar.self, capacity: count) { bytes throws(DBusError) in
            _ = dbus_message_demarshal_bytes_needed(bytes, Int32(count))
            let raw = try withCError { dbus_message_demarshal(bytes, Int32(count), $0) }
            return Message(owning: raw)
        }
    } catch {
        FuzzSeedCheck.rejected("dbus_message_demarshal: \(error)")
        return 0
    }
    DBusValuesCheck(input: input).check(message)
    return 0
}

struct DBusValuesCheck {
    let input: [UInt8]

    func check(_ message: Message) {
        readHeader(message)
        let values: [Value]
        do {
            values = try message.arguments()
        } catch {
            // Refused with an error (unix fds, or a type we do not model): fine, as long as
            // the error names it.
            if error.message.isEmpty { fail("arguments() threw an error without a message") }
            FuzzSeedCheck.rejected("arguments(): \(error)")
            return
        }
        checkTypes(values, signature: message.signature)
        for value in values {
            _ = value.description
            _ = value.summary
            _ = value.dictionary
            _ = value.unwrappedVariant
        }
        reencode(values)
    }

    private func readHeader(_ message: Message) {
        _ = message.kind
        _ = message.path
        _ = message.interface
        _ = message.member
        _ = message.errorName
        _ = message.sender
        _ = message.destination
        _ = message.serial
        _ = message.replySerial
        _ = message.noReplyExpected
        _ = message.error
    }

    private func checkTypes(_ values: [Value], signature: String) {
        let declared: Signature
        do {
            declared = try Signature(signature)
        } catch {
            fail("libdbus accepted the body signature \(signature.debugDescription), Signature refuses it: \(error)")
        }
        if declared.types.count != values.count {
            fail("signature \(signature.debugDescription) has \(declared.types.count) types, arguments() gave \(values.count) values")
        }
        for (index, (type, value)) in zip(declared.types, values).enumerated() where value.type != type {
            fail("argument \(index) decoded as \(value.type.signature), the signature says \(type.signature)")
        }
    }

    private func reencode(_ values: [Value]) {
        var valid = true
        for value in values {
            do {
                try value.validate()
            } catch {
                _ = error.description
                valid = false
            }
        }
        let copy = newMessage()
        do {
            try copy.append(values)
        } catch {
            if valid { fail("validate() accepted the values, append threw: \(error)") }
            return
        }
        if !valid { fail("validate() refused the values, append accepted them") }

        let again: [Value]
        do {
            again = try roundTrip(copy).arguments()
        } catch {
            fail("the re-encoded values do not decode: \(error)")
        }
        if again.count != values.count || !zip(values, again).allSatisfy(Self.identical) {
            fail("re-encoded values decode differently: \(values.count) in, \(again.count) out")
        }
    }

    /// A fresh signal to append to; its header is a constant, so building it cannot fail.
    private func newMessage() -> Message {
        guard
            let raw = dbus_message_new_signal("/org/example/Fuzz", "org.example.Fuzz", "Values")
        else { fail("dbus_message_new_signal: out of memory") }
        dbus_message_set_serial(raw, 1)
        return Message(owning: raw)
    }

    /// The message marshalled and demarshalled again, so libdbus validates what we wrote.
    private func roundTrip(_ message: Message) -> Message {
        var buffer: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        guard dbus_message_marshal(message.raw, &buffer, &length) != 0, let buffer else {
            fail("dbus_message_marshal: out of memory")
        }
        defer { dbus_free(buffer) }
        do {
            let raw = try withCError { dbus_message_demarshal(buffer, length, $0) }
            return Message(owning: raw)
        } catch {
            fail("libdbus refuses the message our append built: \(error)")
        }
    }

    /// Equality that tells doubles apart by bit pattern (so NaN equals itself and -0.0 is not
    /// +0.0) and compares declared container types too.
    static func identical(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.double(let x), .double(let y)):
            return x.bitPattern == y.bitPattern
        case (.array(let t, let xs), .array(let u, let ys)):
            return t == u && xs.count == ys.count && zip(xs, ys).allSatisfy(identical)
        case (.dictionary(let k, let v, let xs), .dictionary(let l, let w, let ys)):
            return k == l && v == w && xs.count == ys.count
                && zip(xs, ys).allSatisfy { identical($0.key, $1.key) && identical($0.value, $1.value) }
        case (.structure(let xs), .structure(let ys)):
            return xs.count == ys.count && zip(xs, ys).allSatisfy(identical)
        case (.variant(let x), .variant(let y)):
            return identical(x, y)
        case (.string(let x), .string(let y)):
            // Swift's == on String is canonical equivalence; the wire carries bytes.
            return x.utf8.elementsEqual(y.utf8)
        default:
            return a == b
        }
    }

    private func fail(_ reason: String) -> Never {
        FuzzFailure.report(reason, input: input)
    }
}
