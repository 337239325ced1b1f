/// The ISO 8601 times a Desktop Bookmark file carries (`2024-03-01T09:30:00.123456Z`, as
/// `g_date_time_format_iso8601` writes them; also `±HH:MM` offsets and no fraction), read by
/// hand: no locale, no Foundation formatter, nothing that can trap on a hostile value.
enum ISO8601Time {
    /// Seconds since the Unix epoch, or nil when `text` is not such a time.
    static func seconds(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { seconds(utf8: $0) }
    }

    /// ``seconds(_:)`` on UTF-8 bytes, read in place (the bookmark reader's attribute values).
    static func seconds(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard bytes.count >= 19, bytes.count <= 64 else { return nil }
        // Reads past the end give 0, so every check below stops there.
        func at(_ index: Int) -> UInt8 { index < bytes.count ? bytes[index] : 0 }
        var index = 0
        func number(_ digits: Int) -> Int? {
            var value = 0
            for _ in 0..<digits {
                let byte = at(index)
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                index += 1
            }
            return value
        }
        func expect(_ character: UInt8) -> Bool {
            guard at(index) == character else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")),
              let day = number(2), expect(UInt8(ascii: "T")) || expect(UInt8(ascii: " ")), let hour = number(2),
              expect(UInt8(ascii: ":")), let minute = number(2), expect(UInt8(ascii: ":")), let second = number(2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60
        else { return nil }
        var fraction = 0.0
        if at(index) == UInt8(ascii: ".") || at(index) == UInt8(ascii: ",") {
            index += 1
            var scale = 0.1
            var digits = 0
            while at(index) >= UInt8(ascii: "0"), at(index) <= UInt8(ascii: "9") {
                if digits < 9 { fraction += Double(at(index) - UInt8(ascii: "0")) * scale }
                scale /= 10
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
        }
        var offset = 0
        switch at(index) {
        case UInt8(ascii: "Z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = at(index) == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = number(2) else { return nil }
            _ = expect(UInt8(ascii: ":"))
            let minutes = at(index) == 0 ? 0 : number(2)
            guard let minutes, hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        case 0:
            break  // no zone: read as UTC, as GLib does for a time without one in a bookmark file
        default:
            return nil
        }
        guard at(index) == 0 else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let whole = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Double(whole) + fraction
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// `2024-03-01T09:30:00Z` for `seconds` since the epoch (whole seconds, UTC): for files
    /// written in tests and the benchmark.
    static func format(_ seconds: Int) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = seconds - days * 86_400
        // civil_from_days
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(rest / 3600)):\(two(rest % 3600 / 60)):\(two(rest % 60))Z"
    }
}
