import Foundation
import Testing
import IDKitMRZ
@testable import IDKitMRZReading

/// The committed photos made for one case each (make_images.py's `single_vector`s), scanned.
@Suite struct SingleVectorTests {
    /// The vector's scan, its reading and its parse (both required).
    static func scanned(_ v: ImageVectors.Entry) throws -> (MRZScanner.Outcome, MRZReading, MRZResult) {
        let outcome = MRZScanner().scan(ImageVectors.image(v.file))
        return (outcome, try #require(outcome.reading), try #require(outcome.parsed))
    }

    /// What is printed is read as printed, then judged: the check digits, a name's
    /// grammar and the list of country codes do not overrule characters the recognizer reads
    /// clearly. `misprinted-00-td3.jpg` (`misprinted`): a blurred TD3 whose birth date has a
    /// letter printed for a digit (`B` for `8`, so that its check digit and the composite fail)
    /// and whose name has a `K` among its trailing fillers. The scanner before the bound on
    /// overruling read the date as `8103…`, "fixed" by the check digits.
    @Test func clearlyPrintedConfusionsAreReadAsPrintedAndJudgedInvalid() throws {
        let v = ImageVectors.file.misprinted
        let (_, reading, parsed) = try Self.scanned(v)
        #expect(reading.lines == v.lines)
        #expect(reading.checkDigitCorrections == 0)
        #expect(!reading.verified)
        #expect(!parsed.isValid)
        #expect(parsed.checkDigits.dateOfBirth == .invalid)
        #expect(parsed.errors.contains { $0.code == .invalidDateCharacter && $0.field == "dateOfBirth" })
    }

    /// A band that only the half-resolution search finds, and not cleanly, is still read.
    /// `faint-00-td2.jpg` (`faint_vector`: photo 1261 of the stress set): thin faint print whose
    /// fillers break into specks at full resolution. At half resolution, with the ink thickened,
    /// one line is found whole and the other in pieces; that band was dropped as not clean and
    /// the image read as having no MRZ.
    @Test func aRoughHalfResolutionBandIsReadWhenNothingElseIsFound() throws {
        let v = ImageVectors.file.faint
        // The plain look finds nothing at either resolution.
        #expect(MRZScanner.looks(ImageVectors.image(v.file))[0].bands().isEmpty)
        let (_, reading, parsed) = try Self.scanned(v)
        #expect(reading.lines == v.lines)
        #expect(parsed.format == .td2)
    }

    /// A French national ID (1988–2021) photographed: read in its own layout, and verified.
    /// `french-00-id.jpg` (`french_vector`): a clean photo of a card printed with the published
    /// specimen's MRZ (BERTHIER Corinne). The band is found as two lines of 36; the scanner before
    /// decoded them as a TD2, whose check digits such a card fails, and never verified one.
    @Test func aFrenchCardIsReadInItsOwnLayoutAndVerified() throws {
        let v = ImageVectors.file.french
        let (_, reading, parsed) = try Self.scanned(v)
        #expect(reading.lines == v.lines)
        #expect(reading.format == .franceID1988)
        #expect(reading.verified)
        #expect(parsed.isValid)
        #expect(parsed.fields.primaryIdentifier == "BERTHIER")
        #expect(parsed.fields.secondaryIdentifier == "CORINNE")
        #expect(parsed.fields.documentNumber == "940992310285")
    }
}
