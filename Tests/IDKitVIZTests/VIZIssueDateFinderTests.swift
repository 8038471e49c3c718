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

    @Test func aRunsMarksAtItsEndsAreNotPrinted() {
        #expect(VIZFieldFinder.trimmed("; ERIKA") == "ERIKA")
        #expect(VIZFieldFinder.trimmed("LIN,") == "LIN")
        #expect(VIZFieldFinder.trimmed("Virtanen $") == "Virtanen")
        #expect(VIZFieldFinder.trimmed("MARI-LIIS") == "MARI-LIIS")
        #expect(VIZFieldFinder.trimmed("-- ;") == "")
    }
}
