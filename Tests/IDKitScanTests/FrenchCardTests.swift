import Foundation
import Testing
import IDKitMRZ
@testable import IDKitMRZReading

/// A French national ID (1988–2021) photographed: read in its own layout, and verified.
@Suite struct FrenchCardTests {
    /// `french-00-id.jpg` (make_images.py's `french_vector`): a clean photo of a card printed with
    /// the published specimen's MRZ (BERTHIER Corinne). The band is found as two lines of 36; the
    /// scanner before decoded them as a TD2, whose check digits such a card fails, and never
    /// verified a French card.
    @Test func aFrenchCardIsReadInItsOwnLayoutAndVerified() throws {
        let v = ImageVectors.file.french
        let outcome = MRZScanner().scan(ImageVectors.image(v.file))
        let reading = try #require(outcome.reading)
        #expect(reading.lines == v.lines)
        #expect(reading.format == .franceID1988)
        #expect(reading.verified)
        let parsed = try #require(outcome.parsed)
        #expect(parsed.isValid)
        #expect(parsed.fields.primaryIdentifier == "BERTHIER")
        #expect(parsed.fields.secondaryIdentifier == "CORINNE")
        #expect(parsed.fields.documentNumber == "940992310285")
    }
}
