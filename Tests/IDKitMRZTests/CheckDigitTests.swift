import Testing
@testable import IDKitMRZ

@Suite struct CheckDigitTests {
    /// ICAO 9303-3 Appendix A worked examples (as asserted in public test suites, e.g. dmrtd).
    @Test(arguments: [
        ("520727", 3),
        ("AB2134<<<", 5),
        ("HA672242<658022549601086<<<<<<<<<<<<<<0", 8),
        ("L898902C<", 3),
        ("L898902C3", 6),
        ("740812", 2),
        ("ZE184226B<<<<<", 1),
    ])
    func icaoExamples(_ text: String, _ digit: Int) {
        #expect(MRZCheckDigit.compute(text) == digit)
    }

    @Test func rejectsCharactersOutsideTheAlphabet() {
        #expect(MRZCheckDigit.compute("abc") == nil)
        #expect(MRZCheckDigit.compute("A B") == nil)
    }

    /// The blind spots of the 7-3-1 scheme: `<`, `0`, `A`, `K`, `U` weigh 0 modulo 10.
    @Test func blindSpots() {
        let base = MRZCheckDigit.compute("X1234<<<<")
        for swap in ["X12340<<<", "X1234A<<<", "X1234K<<<", "X1234U<<<"] {
            #expect(MRZCheckDigit.compute(swap) == base, "\(swap)")
        }
    }
}
