import Foundation
import Testing
import IDKitMRZ
@testable import IDKitMRZReading

/// The French national ID (1988–2021) read from the image: its own layout, not a TD2's.
@Suite struct FrenchCardDecodingTests {
    /// The published specimen (BERTHIER Corinne; TestVectors/mrz/samples.txt, from cheminfo/mrz's
    /// tests), read with certainty from a band the locator took for a TD2 (2 × 36).
    static let specimen = ["IDFRABERTHIER<<<<<<<<<<<<<<<<<<<<<<<", "9409923102854CORINNE<<<<<<<6512068F4"]

    @Test func aFrenchCardIsDecodedInItsOwnLayoutAndVerified() throws {
        #expect(try MRZParser().parse(lines: Self.specimen).format == .franceID1988)
        let r = MRZDecoder().decode(VerificationTests.scores(.td2, Self.specimen))
        #expect(r.format == .franceID1988)
        #expect(r.lines == Self.specimen)
        #expect(r.verified)
        #expect(r.unsureFields.isEmpty)
    }

    @Test func itsCheckDigitsRepairAndJudgeIt() throws {
        // The card number's last digit '5' read as '1' with '5' a close second: the French
        // layout's check digit (position 13) chooses '5', unverified.
        var lines = Self.specimen
        var l2 = Array(lines[1]); l2[11] = "1"; lines[1] = String(l2)
        let r = MRZDecoder().decode(VerificationTests.scores(.td2, lines, [(line: 1, column: 11, symbol: "5", logOdds: -1.5)]))
        #expect(r.lines == Self.specimen)
        #expect(!r.verified)
        #expect(r.unsureFields == ["documentNumber"])
    }
}
