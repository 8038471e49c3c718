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

    /// The sex under its caption is compared with the MRZ's (`F` on the specimen): a page that
    /// prints another is reported as not matching, never dropped or taken as matching.
    @Test func theSexUnderItsCaptionIsComparedWithTheMRZ() {
        #expect(Self.specimen.fields.sex == "F")
        let same = scanner.vizFields(in: [Self.line(0, "Sex/Sexe"), Self.line(1, "F")], mrz: Self.specimen)[.sex]
        #expect(same?.value == "F" && same?.matchesMRZ == true)
        let other = scanner.vizFields(in: [Self.line(0, "Sex/Sexe"), Self.line(1, "M")], mrz: Self.specimen)[.sex]
        #expect(other?.value == "M" && other?.matchesMRZ == false)
        // Read unsurely, nothing is said of it.
        #expect(scanner.vizFields(in: [Self.line(0, "Sex/Sexe"), Self.line(1, "M", confidence: 0.7)], mrz: Self.specimen)[.sex] == nil)
        // The MRZ's `<` is unspecified, which the page prints as `X` (the composite check digit
        // does not cover the sex: the specimen stays valid).
        let unspecified = try! MRZParser(referenceDate: CalendarDate(year: 2025, month: 1, day: 1)).parse(lines: [
            "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<",
            "L898902C36UTO7408122<1204159ZE184226B<<<<<10",
        ])
        #expect(unspecified.isValid)
        #expect(scanner.vizFields(in: [Self.line(0, "Sex/Sexe"), Self.line(1, "X")], mrz: unspecified)[.sex]?.matchesMRZ == true)
        #expect(scanner.vizFields(in: [Self.line(0, "Sex/Sexe"), Self.line(1, "F")], mrz: unspecified)[.sex]?.matchesMRZ == false)
    }

    /// A sex printed otherwise than the verified MRZ says goes into the merge as the VIZ's
    /// reading, but the document keeps the MRZ's and warns; the field's readings hold both.
    @Test func aVerifiedMRZNeverGivesWayToAContradictingSex() throws {
        let box = VIZBox(left: 0, top: 0, right: 10, bottom: 10)
        let page = VIZPage(lines: [], fields: [.sex: VIZField(text: "M", value: "M", confidence: 0.95, box: box, matchesMRZ: false),
                                               .lastName: VIZField(text: "ERIKSSON", value: "ERIKSSON", confidence: 0.95, box: box, matchesMRZ: true)],
                           pageWidth: 100, pageHeight: 100, dotsPerInch: 300)
        var scan = DocumentScan(status: .ok, reason: nil, band: nil, reading: nil, parsed: Self.specimen, quality: nil, barcodes: [],
                                document: nil, timingsMs: [:])
        scanner.mergeAndRedact(&scan, verifiedMRZ: Self.specimen, vizFront: page, vizBack: nil)
        let document = try #require(scan.document)
        #expect(document[.sex].value == "F")
        #expect(document[.sex].source == .mrz)
        #expect(document[.sex].readings[.vizFront] == "M")
        #expect(document.warnings.map(\.code) == [.vizContradictsMRZ])
        #expect(document.warnings.first?.message.contains("vizFront.sex") == true)
        // A field that matches takes the VIZ's printed form, as before.
        #expect(document[.lastName].source == .vizFront)
    }
}
