import IDKitCore
import IDKitDocument
import IDKitMRZ
import IDKitVIZ
import Testing

/// The date of issue by elimination (no caption read): the page's date that is neither the MRZ's
/// birth nor its expiry and lies a validity period before the expiry.
@Suite struct VIZIssueDateFinderTests {
    let finder = VIZIssueDateFinder(referenceDate: CalendarDate(year: 2025, month: 1, day: 1))
    static func lines(_ texts: [String]) -> [VIZLine] { VIZFieldFinderTests.lines(texts) }
    // ICAO's specimen: born 1974-08-12, expires 2012-04-15.
    static let specimen = VIZFieldFinderTests.specimen

    @Test func theOneOtherDateTenYearsBeforeTheExpiry() throws {
        let found = try #require(finder.dateOfIssue(in: Self.lines(["ERIKSSON", "12 AUG/AOUT 74", "ZENITH 16 APR/AVR 02", "15 APR/AVR 12"]),
                                                    mrz: Self.specimen))
        #expect(found.value == "2002-04-16")
        #expect(found.text.hasPrefix("16 APR"))
        #expect(found.matchesMRZ == nil)
    }

    /// A date after the expiry, in the future, or more than eleven years before the expiry is no
    /// date of issue; the birth date (in either century) is not one either.
    @Test func datesThatCannotBeTheIssueAreNotTaken() {
        #expect(finder.dateOfIssue(in: Self.lines(["12.08.1974", "15.04.2012", "01.01.2013"]), mrz: Self.specimen) == nil)
        #expect(finder.dateOfIssue(in: Self.lines(["12.08.1974", "15.04.2012", "01.01.1990"]), mrz: Self.specimen) == nil)
        #expect(finder.dateOfIssue(in: Self.lines(["12.08.2074", "15.04.2012"]), mrz: Self.specimen) == nil)
    }

    /// A value read under the date-of-issue caption that is the expiry (a caption read beside the
    /// expiry's, as on a US visa) or the birth date, or lies after the expiry, is not the date of
    /// issue; one before the expiry is, however near it.
    @Test func theMRZsDatesRuleOutACaptionsValue() {
        #expect(!VIZIssueDateFinder.mayBeIssued(on: "2012-04-15", mrz: Self.specimen))
        #expect(!VIZIssueDateFinder.mayBeIssued(on: "2013-01-01", mrz: Self.specimen))
        #expect(!VIZIssueDateFinder.mayBeIssued(on: "1974-08-12", mrz: Self.specimen))
        #expect(VIZIssueDateFinder.mayBeIssued(on: "2002-04-16", mrz: Self.specimen))
        #expect(VIZIssueDateFinder.mayBeIssued(on: "2012-03-01", mrz: Self.specimen))
    }

    /// Two dates that could both be it: the one a whole number of years before the expiry, when
    /// only one is; otherwise none (a guess is no answer).
    @Test func ofTwoCandidatesOnlyAWholeValidityPeriodDecides() {
        let two = finder.dateOfIssue(in: Self.lines(["16.04.2007", "03.09.2009", "15.04.2012"]), mrz: Self.specimen)
        #expect(two?.value == "2007-04-16")
        #expect(finder.dateOfIssue(in: Self.lines(["16.04.2007", "16.04.2002"]), mrz: Self.specimen) == nil)
    }

    static func issue(_ value: String, confidence: Double) -> VIZField {
        VIZField(text: value, value: value, confidence: confidence, box: VIZBox(left: 0, top: 0, right: 10, bottom: 10), matchesMRZ: nil)
    }

    /// A date of issue the expiry (2012-04-15) follows by whole years, or that less a day, is
    /// trusted however unsurely read; one a few days off is an OCR slip unless read surely (the
    /// real Croatian page's `01.07.2009` read `04.07. 2009` at 0.73).
    @Test func aDateOfIssueTheExpiryDoesNotFollowByWholeYearsNeedsASureReading() {
        for value in ["2002-04-15", "2007-04-16", "2011-04-15", "2002-04-16"] {
            #expect(VIZIssueDateFinder.isTrusted(Self.issue(value, confidence: 0.3), mrz: Self.specimen), "\(value)")
        }
        for value in ["2007-04-12", "2002-04-18", "2007-10-16", "1995-04-16"] {
            #expect(!VIZIssueDateFinder.isTrusted(Self.issue(value, confidence: 0.73), mrz: Self.specimen), "\(value)")
            #expect(VIZIssueDateFinder.isTrusted(Self.issue(value, confidence: 0.95), mrz: Self.specimen), "\(value)")
        }
        // Surely read, but a digit lost: the day and the month padded differently.
        func printed(_ text: String, _ value: String) -> VIZField {
            VIZField(text: text, value: value, confidence: 0.96, box: VIZBox(left: 0, top: 0, right: 10, bottom: 10), matchesMRZ: nil)
        }
        #expect(!VIZIssueDateFinder.isTrusted(printed("2. 04. 2007", "2007-04-02"), mrz: Self.specimen))
        #expect(!VIZIssueDateFinder.isTrusted(printed("02.4.2007", "2007-04-02"), mrz: Self.specimen))
        #expect(VIZIssueDateFinder.isTrusted(printed("12.04.2007", "2007-04-12"), mrz: Self.specimen))
        #expect(VIZIssueDateFinder.isTrusted(printed("12.4.2007", "2007-04-12"), mrz: Self.specimen))
        #expect(VIZIssueDateFinder.isTrusted(printed("2.4.2007", "2007-04-02"), mrz: Self.specimen))
        #expect(VIZIssueDateFinder.isTrusted(printed("12 APR 2007", "2007-04-12"), mrz: Self.specimen))
        // The expiry's whole years vouch for it however it is printed.
        #expect(VIZIssueDateFinder.isTrusted(printed("16.4.2007", "2007-04-16"), mrz: Self.specimen))
        // Issued 1 January, expiring 31 December nine years on; issued 29 February.
        var mrz = Self.specimen
        mrz.dateOfExpiry = CalendarDate(year: 2016, month: 12, day: 31)
        #expect(VIZIssueDateFinder.isTrusted(Self.issue("2007-01-01", confidence: 0.3), mrz: mrz))
        mrz.dateOfExpiry = CalendarDate(year: 2018, month: 2, day: 28)
        #expect(VIZIssueDateFinder.isTrusted(Self.issue("2008-02-29", confidence: 0.3), mrz: mrz))
        mrz.dateOfExpiry = CalendarDate(year: 2018, month: 2, day: 27)
        #expect(VIZIssueDateFinder.isTrusted(Self.issue("2008-02-29", confidence: 0.3), mrz: mrz))
    }

    @Test func aRunsMarksAtItsEndsAreNotPrinted() {
        #expect(VIZFieldFinder.trimmed("; ERIKA") == "ERIKA")
        #expect(VIZFieldFinder.trimmed("LIN,") == "LIN")
        #expect(VIZFieldFinder.trimmed("Virtanen $") == "Virtanen")
        #expect(VIZFieldFinder.trimmed("MARI-LIIS") == "MARI-LIIS")
        #expect(VIZFieldFinder.trimmed("-- ;") == "")
    }

    /// A card's validity printed as one range: its start is the date of issue, whole years or not,
    /// but only where the range ends on the MRZ's expiry and starts between birth and expiry.
    @Test func theStartOfAValidityRangeEndingOnTheExpiry() throws {
        let found = try #require(finder.dateOfIssue(inRangesOf: Self.lines(["Mun. Zenith 17.10.03-15.04.2012"]), mrz: Self.specimen))
        #expect(found.value == "2003-10-17")
        #expect(found.text == "17.10.03")
        #expect(found.matchesMRZ == nil)
        #expect(finder.dateOfIssue(inRangesOf: Self.lines(["17.10.03-16.04.2012"]), mrz: Self.specimen) == nil)
        #expect(finder.dateOfIssue(inRangesOf: Self.lines(["17.10.2013-15.04.2012"]), mrz: Self.specimen) == nil)
        #expect(finder.dateOfIssue(inRangesOf: Self.lines(["17.10.03 15.04.2012"]), mrz: Self.specimen) == nil)
        // A start no validity period allows (22 years before the expiry) is no date of issue.
        #expect(finder.dateOfIssue(inRangesOf: Self.lines(["01.01.1990-15.04.2012"]), mrz: Self.specimen) == nil)
    }
}
