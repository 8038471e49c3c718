// IDKitMRZ's API speaks of IDKitCore's `CalendarDate`: re-exported, as swift-nio's `NIO` re-exports
// `NIOCore`, so that `import IDKitMRZ` keeps giving it.
@_exported import IDKitCore

/// How a two-digit MRZ year becomes a calendar year.
///
/// ICAO 9303 gives no pivot year: the century is inferred. IDKit's stated rule, relative to a reference
/// date the caller passes (by default today, UTC):
/// - a **date of birth** takes the latest century that does not put it after the reference date;
/// - a **date of expiry** takes the century that puts its year within 50 years before or 49 after the
///   reference year (expired documents and long validities both resolve sensibly).
public enum MRZCenturyRule {
    public static func birthYear(yy: Int, month: Int?, day: Int?, reference: CalendarDate) -> Int {
        var year = (reference.year / 100) * 100 + yy
        let m = month ?? 1, d = day ?? 1
        if (year, m, d) > (reference.year, reference.month, reference.day) { year -= 100 }
        return year
    }

    public static func expiryYear(yy: Int, reference: CalendarDate) -> Int {
        var year = (reference.year / 100) * 100 + yy
        if year > reference.year + 49 { year -= 100 } else if year < reference.year - 50 { year += 100 }
        return year
    }
}
