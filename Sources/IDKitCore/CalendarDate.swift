import Foundation

/// A day in the proleptic Gregorian calendar, with no time or time zone. Encodes as `"YYYY-MM-DD"`.
/// The one statement of the calendar's rules (leap years, days per month) for every module: the
/// MRZ's dates, AAMVA's and the magnetic stripe's, the document merger's.
public struct CalendarDate: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    // Stored in 6 bytes: results carry two dates and are copied on every parse.
    // Inlinable across modules: the MRZ's fast JSON writer formats dates in its inner loop.
    @usableFromInline var year16: Int16
    @usableFromInline var month8: UInt8
    @usableFromInline var day8: UInt8

    public var year: Int {
        @inlinable get { Int(year16) }
        set { year16 = Int16(truncatingIfNeeded: newValue) }
    }
    public var month: Int {
        @inlinable get { Int(month8) }
        set { month8 = UInt8(truncatingIfNeeded: newValue) }
    }
    public var day: Int {
        @inlinable get { Int(day8) }
        set { day8 = UInt8(truncatingIfNeeded: newValue) }
    }

    /// Years outside −32768…32767 are not representable (and not met in identity documents).
    @inlinable
    public init(year: Int, month: Int, day: Int) {
        year16 = Int16(truncatingIfNeeded: year)
        month8 = UInt8(truncatingIfNeeded: month)
        day8 = UInt8(truncatingIfNeeded: day)
    }

    /// Days since 1970-01-01 (negative before it): Arrow's `date32`. The days-from-civil
    /// arithmetic of the proleptic Gregorian calendar, in 400-year eras of 146,097 days.
    @inlinable
    public var daysSince1970: Int32 {
        let y = Int(year16) - (month8 <= 2 ? 1 : 0)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int(month8)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int(day8) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return Int32(truncatingIfNeeded: era * 146_097 + dayOfEra - 719_468)
    }

    /// Parses `YYYY-MM-DD`; `nil` when the text is not a real date.
    public init?(iso8601 text: String) {
        // Bytes, not Characters, and no allocation: this runs for every date a merge compares.
        var y = 0, m = 0, d = 0, i = 0
        for byte in text.utf8 {
            switch i {
            case 4, 7:
                guard byte == UInt8(ascii: "-") else { return nil }
            case 0...9:
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                let v = Int(byte - 0x30)
                if i < 4 { y = y * 10 + v } else if i < 7 { m = m * 10 + v } else { d = d * 10 + v }
            default:
                return nil
            }
            i += 1
        }
        guard i == 10, CalendarDate.isValid(year: y, month: m, day: d) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// Today in UTC.
    public static var today: CalendarDate {
        var t = time_t(Date().timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&t, &parts)
        return CalendarDate(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
    }

    @inlinable
    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    @inlinable
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    @inlinable
    public static func isValid(year: Int, month: Int, day: Int) -> Bool {
        month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year: year, month: month)
    }

    public static func < (a: CalendarDate, b: CalendarDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    public var description: String {
        String(unsafeUninitializedCapacity: 10) { writeISO8601(to: $0.baseAddress!) }
    }

    /// Writes `YYYY-MM-DD` (10 bytes) at `out`; returns 10. Years outside 0…9999 are not written
    /// faithfully (they are not met in identity documents).
    @inlinable @inline(__always)
    public func writeISO8601(to out: UnsafeMutablePointer<UInt8>) -> Int {
        @inline(__always) func two(_ v: Int, _ at: Int) {
            out[at] = UInt8(truncatingIfNeeded: v / 10 % 10) &+ 0x30
            out[at &+ 1] = UInt8(truncatingIfNeeded: v % 10) &+ 0x30
        }
        two(year / 100, 0)
        two(year, 2)
        out[4] = UInt8(ascii: "-")
        two(month, 5)
        out[7] = UInt8(ascii: "-")
        two(day, 8)
        return 10
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = CalendarDate(iso8601: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "expected YYYY-MM-DD, found \(text)"))
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

