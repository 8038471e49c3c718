import IDKitCore
import IDKitMRZ
@testable import IDKitScan
import IDKitVIZ
import Testing

/// How a scan settles the date of issue among the visual zone's lines (``DocumentScanner/vizFields(in:mrz:)``):
/// the value under its caption when the MRZ's dates allow it and it can be trusted, else the date
/// by elimination, held to the same rules. ICAO's specimen: born 1974-08-12, expires 2012-04-15.
@Suite struct VIZIssueDateTrustTests {
    static let specimen = try! MRZParser(referenceDate: CalendarDate(year: 2025, month: 1, day: 1)).parse(lines: [
        "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<",
        "L898902C36UTO7408122F1204159ZE184226B<<<<<10",
    ])
    let scanner = DocumentScanner(readBarcodes: false, referenceDate: CalendarDate(year: 2025, month: 1, day: 1))

    /// A line of words at 20 px a character, 60 px between lines, each word at `confidence`.
    static func line(_ k: Int, _ text: String, x: Int = 100, confidence: Double = 0.95) -> VIZLine {
        var words: [VIZWord] = [], at = x
        for w in text.split(separator: " ") {
            words.append(VIZWord(text: String(w), confidence: confidence, box: VIZBox(left: at, top: 60 * k, right: at + 20 * w.count, bottom: 60 * k + 30)))
            at += 20 * w.count + 15
        }
        return VIZLine(text: text, confidence: confidence, box: words.dropFirst().reduce(words[0].box) { $0.union($1.box) }, words: words)
    }

    /// Under the caption `04.07.2007`, read at 0.7: 4 years and 9 months before the expiry, most
    /// likely a slip in a digit. It gives way to the page's other date, `16 APR 2007`, a whole five
    /// years (less a day) before the expiry. Read surely, the caption's value stands.
    @Test func anUntrustedValueUnderItsCaptionGivesWayToTheDateByElimination() {
        func lines(_ confidence: Double) -> [VIZLine] {
            [Self.line(0, "Date of issue"), Self.line(1, "04.07.2007", confidence: confidence),
             Self.line(3, "12 AUG 1974", x: 900), Self.line(4, "16 APR 2007", x: 900), Self.line(5, "15 APR 2012", x: 900)]
        }
        #expect(scanner.vizFields(in: lines(0.7), mrz: Self.specimen)[.dateOfIssue]?.value == "2007-04-16")
        #expect(scanner.vizFields(in: lines(0.95), mrz: Self.specimen)[.dateOfIssue]?.value == "2007-07-04")
    }

    /// Nothing trusted anywhere: no date of issue rather than a guess.
    @Test func noTrustedDateIsNoDateOfIssue() {
        let lines = [Self.line(0, "Date of issue"), Self.line(1, "04.07.2007", confidence: 0.7), Self.line(4, "15 APR 2012", x: 900)]
        #expect(scanner.vizFields(in: lines, mrz: Self.specimen)[.dateOfIssue] == nil)
    }
}
