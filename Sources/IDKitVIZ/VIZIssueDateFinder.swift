import Foundation
import IDKitCore
import IDKitDocument
import IDKitMRZ

/// Finds the date of issue where its caption was not read: a data page or a card prints three dates
/// of the holder's document (ICAO 9303-4 §4.2.2 zone II and -5: date of birth, date of issue, date of
/// expiry), and the MRZ holds two of them. The date printed on the page that is neither, falls
/// after the birth and before the expiry, is not in the future, and lies a validity period before
/// the expiry (1 to 11 years: documents are valid for whole years, a day or a few weeks less or
/// more) is the date of issue. Taken only when one date remains; where several do, the one a whole
/// number of years (within 45 days) before the expiry, if only one is.
///
/// Captions in small print are often not read at all (`Date of issue / Date de délivrance` in
/// 1.5 mm print on guilloche), while the dates themselves, in larger print, are.
public struct VIZIssueDateFinder: Sendable {
    /// The date two-digit years are resolved against, and the latest a document can be issued.
    public var referenceDate: CalendarDate
    /// The most words one date spans (`16 APR /AVR 07`).
    static let maximumWords = 4

    public init(referenceDate: CalendarDate = .today) {
        self.referenceDate = referenceDate
    }

    /// The date of issue among `lines`, or `nil` when none or more than one date could be it.
    public func dateOfIssue(in lines: [VIZLine], mrz: MRZResult) -> VIZField? {
        guard let birth = mrz.dateOfBirth, let expiry = mrz.dateOfExpiry else { return nil }
        var dates: [String: VIZField] = [:]
        for line in lines {
            let words = line.words
            for start in words.indices {
                for end in (start + 1)...min(words.count, start + Self.maximumWords) {
                    let run = words[start..<end]
                    let text = VIZFieldFinder.trimmed(run.map(\.text).joined(separator: " "))
                    let found = DocumentDate.candidates(text, monthFirst: false, kind: .issue, reference: referenceDate)
                    // The first reading, day before month unless the text says otherwise, as
                    // under a caption (``VIZLabelFinder``).
                    guard let value = found.first, let date = CalendarDate(iso8601: value),
                          Self.mayBeIssue(date, birth: birth, expiry: expiry, reference: referenceDate) else { continue }
                    let field = VIZField(text: text, value: value, confidence: run.map(\.confidence).min() ?? 0,
                                         box: run.dropFirst().reduce(run.first!.box) { $0.union($1.box) }, matchesMRZ: nil)
                    if let known = dates[value], known.confidence >= field.confidence { continue }
                    dates[value] = field
                }
            }
        }
        if dates.count == 1 { return dates.first!.value }
        let whole = dates.values.filter { Self.wholeYears(from: $0.value, to: expiry) }
        return whole.count == 1 ? whole[0] : nil
    }

    /// The date of issue printed as the start of a validity range that ends on the MRZ's expiry
    /// (`17.10.03-09.05.2013` under `Valabilitate / Validity`: one word to Tesseract), or `nil`.
    /// The range says what the date is, so it needs neither caption nor whole years of validity;
    /// it must still be a date of issue the MRZ's dates allow (not the birth, not in the future, a
    /// validity period of 1 to 11 years before the expiry).
    public func dateOfIssue(inRangesOf lines: [VIZLine], mrz: MRZResult) -> VIZField? {
        guard let birth = mrz.dateOfBirth, let expiry = mrz.dateOfExpiry else { return nil }
        for line in lines {
            for word in line.words {
                guard let range = word.dateRange,
                      DocumentDate.candidates(range.end.text, monthFirst: false, kind: .expiry, reference: referenceDate).first == expiry.description,
                      let value = DocumentDate.candidates(range.start.text, monthFirst: false, kind: .issue, reference: referenceDate).first,
                      let date = CalendarDate(iso8601: value), Self.mayBeIssue(date, birth: birth, expiry: expiry, reference: referenceDate)
                else { continue }
                return VIZField(text: range.start.text, value: value, confidence: word.confidence, box: range.start.box, matchesMRZ: nil)
            }
        }
        return nil
    }

    /// Whether the MRZ's dates leave `iso` possible as the date of issue: before the expiry and not
    /// the birth date (in either century). Without those dates, or for a value that is no date,
    /// nothing rules it out.
    public static func mayBeIssued(on iso: String, mrz: MRZResult) -> Bool {
        guard let date = CalendarDate(iso8601: iso), let birth = mrz.dateOfBirth, let expiry = mrz.dateOfExpiry else { return true }
        return isBetween(date, birth: birth, expiry: expiry)
    }

    /// Whether `field`, read as the date of issue, can be trusted beside the MRZ's expiry: most
    /// documents are valid for a whole number of years from the day of issue, or that less a day
    /// (ICAO 9303-4 §4.2.2 and -5 leave the period to the issuer; a passport issued 2008-02-22
    /// expires 2018-02-21 or 2018-02-22). A date that misses both by days is far more often an OCR
    /// slip in a digit (`04.07.2009` for `01.07.2009`) than a document whose validity runs whole
    /// years and some days (a carried-over passport, a card expiring on the holder's birthday, a
    /// visa); such a date is taken only when every word of it was read surely
    /// (``VIZField/sureConfidence``) and printed with its day and month alike: a page that pads
    /// one with a zero pads the other (`22.02.2008`, `2.2.2008`, `12.4.2008`), and `2. 02. 2008`
    /// is one with a digit lost, however sure Tesseract is of it (the real German passport's
    /// `22.02.2008` read at 0.96). Without an expiry, or for a value that is no date, nothing rules
    /// it out.
    public static func isTrusted(_ field: VIZField, mrz: MRZResult) -> Bool {
        guard let date = CalendarDate(iso8601: field.value), let expiry = mrz.dateOfExpiry else { return true }
        return (field.confidence >= VIZField.sureConfidence && paddedAlike(field.text)) || runsWholeYears(from: date, to: expiry)
    }

    /// Whether a date printed as three numbers, one of them a four-digit year, does not pad its
    /// day or month with a zero while printing the other as a single digit; any other print passes.
    static func paddedAlike(_ text: String) -> Bool {
        let runs = text.split(whereSeparator: { !$0.isASCII || !$0.isNumber })
        guard runs.count == 3, let year = runs.firstIndex(where: { $0.count == 4 }) else { return true }
        let others = runs.indices.filter { $0 != year }.map { runs[$0] }
        return !(others.contains { $0.count == 2 && $0.first == "0" } && others.contains { $0.count == 1 })
    }

    /// Whether `expiry` is `issue` plus a whole number of years (1 to 15), or that less one day. A
    /// 29 February issue runs to 28 February, or that less a day.
    static func runsWholeYears(from issue: CalendarDate, to expiry: CalendarDate) -> Bool {
        // The anniversary in the expiry's year, or the next one's (issued 1 January, expiring 31
        // December nine years on).
        [expiry.year, expiry.year + 1].contains { year in
            guard (1...15).contains(year - issue.year) else { return false }
            let day = min(issue.day, CalendarDate.daysInMonth(year: year, month: issue.month))
            let anniversary = CalendarDate(year: year, month: issue.month, day: day)
            return (0...1).contains(days(from: expiry, to: anniversary))
        }
    }

    /// Before the expiry and not the birth date, in either century: the MRZ's two-digit year of a
    /// birth in 1911 is read as 2011, so the birth is no lower bound.
    static func isBetween(_ date: CalendarDate, birth: CalendarDate, expiry: CalendarDate) -> Bool {
        date < expiry && (date.year % 100 != birth.year % 100 || date.month != birth.month || date.day != birth.day)
    }

    static func mayBeIssue(_ date: CalendarDate, birth: CalendarDate, expiry: CalendarDate, reference: CalendarDate) -> Bool {
        guard isBetween(date, birth: birth, expiry: expiry), date <= reference else { return false }
        let days = Self.days(from: date, to: expiry)
        return days >= 365 - 45 && days <= 11 * 366
    }

    /// Days from `a` to `b` (``CalendarDate/daysSince1970``: the proleptic Gregorian calendar).
    static func days(from a: CalendarDate, to b: CalendarDate) -> Int {
        Int(b.daysSince1970) - Int(a.daysSince1970)
    }

    /// Whether `iso` lies a whole number of years, within 45 days, before `expiry`.
    static func wholeYears(from iso: String, to expiry: CalendarDate) -> Bool {
        guard let date = CalendarDate(iso8601: iso) else { return false }
        let days = Double(Self.days(from: date, to: expiry))
        let years = (days / 365.25).rounded()
        return years >= 1 && abs(days - years * 365.25) <= 45
    }
}
