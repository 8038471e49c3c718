import Foundation
import Testing
import IDKitImage
import IDKitMRZ
@testable import IDKitMRZReading

/// When the scanner stops looking (``MRZScanner/Outcome/isSettled``), how frames are fused
/// (``MRZScanner/fused(_:)``) and what the template probe measures (``OCRBClassifier``).
@Suite struct ScannerSearchTests {
    /// A TD1 whose nationality is printed as digits (`132`, as on a Romanian ID): no check digit
    /// covers it, so all four pass and the MRZ is invalid by the code rule alone.
    static let digitsInNationality: [String] = {
        let fields = MRZFields(documentCode: "ID", issuingState: "UTO", documentNumber: "D23145890",
                               primaryIdentifier: "ERIKSSON", secondaryIdentifier: "ANNA", nationality: "UTO",
                               dateOfBirth: "740812", sex: "F", dateOfExpiry: "320415", optionalData1: "", optionalData2: "")
        var lines = try! MRZGenerator.generate(fields, format: .td1).split(separator: "\n").map(String.init)
        var second = Array(lines[1])
        second.replaceSubrange(15..<18, with: "132")
        lines[1] = String(second)
        return lines
    }()

    /// The outcome of a reading of `lines`, every character at confidence 1 unless `doubted` names
    /// one (line, column) read at 0.9.
    static func outcome(_ lines: [String], corrections: Int, doubted: (Int, Int)? = nil) -> MRZScanner.Outcome {
        var confidence = lines.map { $0.map { _ in 1.0 } }
        if let (l, c) = doubted { confidence[l][c] = 0.9 }
        let reading = MRZReading(format: .td1, lines: lines, confidence: confidence, verified: false,
                                 checkDigitCorrections: corrections, unsureFields: [], recognizer: .network)
        return MRZScanner.Outcome(band: nil, reading: reading, parsed: try? MRZParser().parse(lines: lines),
                                  locateMilliseconds: 0, readMilliseconds: 0)
    }

    /// A photo shrunk until its characters are about 6 px (TestVectors/images' `lowres-00-td3.jpg`
    /// at half its size, 292 × 205): none of the plain searches finds its band; the search of the
    /// image enlarged twice, for small print only (``MRZBandLocator/enlargedPrint``), does, and it
    /// reads exactly and verified.
    @Test func printTooSmallForThePlainSearchesIsFoundEnlarged() throws {
        let directory = SecondOpinionTests.images
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("manifest.json"))) as! [String: Any]
        let entry = try #require((manifest["images"] as! [[String: Any]]).first { ($0["file"] as? String) == "lowres-00-td3.jpg" })
        let image = try ImageDecoder.decodeFile(atPath: directory.appendingPathComponent("lowres-00-td3.jpg").path).image
        let (w, h) = (image.width / 2, image.height / 2)
        func corners(_ w: Int, _ h: Int) -> [Point] {
            [Point(x: 0, y: 0), Point(x: Double(w), y: 0), Point(x: Double(w), y: Double(h)), Point(x: 0, y: Double(h))]
        }
        let small = image.warped(width: w, height: h, by: try #require(Homography(from: corners(w, h), to: corners(image.width, image.height))))
        #expect(MRZScanner.looks(small).filter(\.searches).allSatisfy { $0.bands().isEmpty })
        let scanner = MRZScanner()
        let located = scanner.locate(small)
        #expect(located.bands.count == 1)
        let reading = try #require(scanner.scan(small, located: located).reading)
        #expect(reading.lines == entry["lines"] as? [String])
        #expect(reading.verified)
    }

    @Test func printedDigitsInACodeSettleTheSearchWhenEveryCheckDigitPasses() throws {
        let parsed = try MRZParser().parse(lines: Self.digitsInNationality)
        #expect(!parsed.isValid)
        #expect(parsed.errors.map(\.code.rawValue) == ["digitInCode"])
        #expect([parsed.checkDigits.documentNumber, parsed.checkDigits.dateOfBirth, parsed.checkDigits.dateOfExpiry,
                 parsed.checkDigits.composite] == [.valid, .valid, .valid, .valid])
        #expect(Self.outcome(Self.digitsInNationality, corrections: 0).isSettled)
    }

    /// A band whose lines cannot be cut out of the image (its lines collapsed to a point: no
    /// homography maps the template onto it) reads as nothing. The decoder took the first line's
    /// first position of evidence that was not there and the process died (a stress photo's band
    /// read the other way up).
    @Test func aBandThatCannotBeCutOutReadsAsNothing() {
        let point = Point(x: 40, y: 30)
        let line = MRZLineGeometry(start: point, end: point, componentCount: 44, componentCenters: [])
        let band = MRZBand(lines: [line, line], characterHeight: 12, pitch: 10, format: .td3)
        let image = GrayImage(width: 200, height: 100, pixels: [UInt8](repeating: 200, count: 200 * 100))
        #expect(!MRZLineReader().read(image, band: band).isComplete(for: band))
        let outcome = MRZScanner().read(image, oriented: band)
        #expect(outcome.reading == nil)
        #expect(outcome.band == nil)
        #expect(!outcome.isSettled)
    }

    @Test func aReadingTheCheckDigitsRepairedDoesNotSettleAnInvalidMRZ() {
        // The check digits chose a character: the band may be wrong and another look may read it right.
        #expect(!Self.outcome(Self.digitsInNationality, corrections: 1).isSettled)
    }

    static var failingBirthCheckDigit: [String] {
        var second = Array(digitsInNationality[1])
        second[6] = second[6] == "1" ? "2" : "1"          // the birth date's check digit
        return [digitsInNationality[0], String(second), digitsInNationality[2]]
    }

    /// A failing check digit does not settle the search, but ends it when the recognizer read
    /// every character clearly (``MRZScanner/clearlyRead``): then the print says so, and another
    /// look would read the same. One character read less clearly, or one the check digits
    /// changed, and another look may read the band right.
    @Test func aFailingCheckDigitEndsTheSearchOnlyWhenClearlyRead() throws {
        let lines = Self.failingBirthCheckDigit
        #expect(try MRZParser().parse(lines: lines).checkDigits.dateOfBirth == .invalid)
        let clear = Self.outcome(lines, corrections: 0)
        #expect(!clear.isSettled)
        #expect(clear.isClearlyRead)
        #expect(clear.endsSearch)
        #expect(!Self.outcome(lines, corrections: 0, doubted: (1, 3)).endsSearch)
        #expect(!Self.outcome(lines, corrections: 1).endsSearch)
        #expect(!MRZScanner.Outcome(band: nil, reading: nil, parsed: nil, locateMilliseconds: 0, readMilliseconds: 0).endsSearch)
    }

    /// A band found 36 characters wide and read as a valid TD2, and the same band widened to 44
    /// and read as a valid TD3, neither verified: the TD3 passes five check digits to the TD2's
    /// four, and is taken (``MRZScanner/Outcome/replacesAsWidened(_:)``).
    @Test func aValidWidenedReadingWithMoreCheckDigitsReplacesAValidShortOne() throws {
        func outcome(_ lines: [String], _ format: MRZFormat, verified: Bool = false) -> MRZScanner.Outcome {
            let reading = MRZReading(format: format, lines: lines, confidence: lines.map { $0.map { _ in 0.9 } }, verified: verified,
                                     checkDigitCorrections: 0, unsureFields: verified ? [] : ["name"], recognizer: .network)
            return MRZScanner.Outcome(band: nil, reading: reading, parsed: try? MRZParser().parse(lines: lines),
                                      locateMilliseconds: 0, readMilliseconds: 0)
        }
        let fields = MRZFields(documentCode: "P", issuingState: "UTO", documentNumber: "L898902C3",
                               primaryIdentifier: "ERIKSSON", secondaryIdentifier: "ANNA", nationality: "UTO",
                               dateOfBirth: "740812", sex: "F", dateOfExpiry: "320415", optionalData1: "", optionalData2: nil)
        let td3 = try MRZGenerator.generate(fields, format: .td3).split(separator: "\n").map(String.init)
        var card = fields
        card.documentCode = "I"
        let td2 = try MRZGenerator.generate(card, format: .td2).split(separator: "\n").map(String.init)
        let short = outcome(td2, .td2), wide = outcome(td3, .td3)
        #expect(short.parsed?.isValid == true && wide.parsed?.isValid == true)
        #expect(short.passingCheckDigits == 4 && wide.passingCheckDigits == 5)
        #expect(wide.replacesAsWidened(short))
        // The other way round, fewer check digits: kept only if verified.
        #expect(!short.replacesAsWidened(wide))
        #expect(outcome(td2, .td2, verified: true).replacesAsWidened(wide))
        // An invalid widened reading replaces nothing valid.
        var broken = td3
        broken[1] = String(broken[1].dropLast()) + (broken[1].last == "1" ? "2" : "1")
        #expect(!outcome(broken, .td3).replacesAsWidened(short))
    }

    /// Which of two readings of one band the scanner keeps (``MRZScanner/Outcome/replaces(_:)``).
    @Test func aClearReadingReplacesAnUnclearOneThatPassesNoMoreCheckDigits() {
        let failing = Self.failingBirthCheckDigit                   // the birth date's and the composite fail
        var worse = Array(failing[1])
        worse[14] = worse[14] == "1" ? "2" : "1"                     // and the expiry's too
        let failingTwo = [failing[0], String(worse), failing[2]]
        let unclear = Self.outcome(failing, corrections: 0, doubted: (1, 3))
        // Clear, as many check digits: taken.
        #expect(Self.outcome(failing, corrections: 0).replaces(unclear))
        // Clear, but fewer check digits than the unclear one (a bent page's zeros read as `O`): not.
        #expect(!Self.outcome(failingTwo, corrections: 0).replaces(unclear))
        // … unless the unclear one passes them because the check digits changed it.
        #expect(Self.outcome(failingTwo, corrections: 0).replaces(Self.outcome(failing, corrections: 1, doubted: (1, 3))))
        // Unclear never replaces; settled always does; nothing replaces a settled reading but a settled one.
        #expect(!Self.outcome(failing, corrections: 0, doubted: (1, 4)).replaces(unclear))
        let settled = Self.outcome(Self.digitsInNationality, corrections: 0)
        #expect(settled.replaces(Self.outcome(failing, corrections: 0)))
        #expect(!Self.outcome(failing, corrections: 0).replaces(settled))
        #expect(Self.outcome(failing, corrections: 0, doubted: (1, 4)).replaces(nil))
    }

    /// A strip of ink holding the templates of `text` (variant 0) side by side at the template
    /// pitch, `offset` pixels right and down of their nominal cells.
    static func strip(_ text: String, offset: (x: Int, y: Int)) -> (ink: [Float], width: Int, height: Int) {
        let w = OCRBClassifier.width, h = OCRBClassifier.height, pad = MRZLineReader.pad
        let width = text.count * w + 2 * pad, height = h + 2 * pad
        var ink = [Float](repeating: 0, count: width * height)
        for (i, ch) in text.utf8.enumerated() {
            let k = OCRBTemplates.symbols.firstIndex(of: ch)!
            for r in 0..<h {
                for c in 0..<w {
                    let x = pad + i * w + c + offset.x, y = pad + r + offset.y
                    guard x >= 0, x < width, y >= 0, y < height else { continue }
                    ink[y * width + x] = Float(OCRBTemplates.ink[k * w * h + r * w + c])
                }
            }
        }
        return (ink, width, height)
    }

    @Test(arguments: [(0, 0), (2, 1), (-1, -1)])
    func probeFindsEachTemplateAtItsCellWithinReach(dx: Int, dy: Int) {
        let text = "P<UTO0O8B<K"
        let (ink, width, height) = Self.strip(text, offset: (dx, dy))
        let cells = (0..<text.count).map { (x: MRZLineReader.pad + $0 * OCRBClassifier.width, y: MRZLineReader.pad) }
        let scores = ink.withUnsafeBufferPointer { buffer in
            cells.map { OCRBClassifier.shared.scores(ink: buffer, stride: width, rows: height, x: $0.x, y: $0.y, reachX: 2, reachY: 1) }
        }
        #expect(scores.count == text.count)
        for (i, ch) in text.utf8.enumerated() {
            let best = scores[i].indices.max { scores[i][$0] < scores[i][$1] }!
            #expect(OCRBTemplates.symbols[best] == ch, "cell \(i)")
            #expect(scores[i][best] > 0.999, "cell \(i): a template against itself correlates 1")
            #expect(scores[i].allSatisfy { $0 >= -1 && $0 <= 1.0001 })
        }
    }

    /// The probe's definition written out plainly: per symbol, the best normalized cross-correlation
    /// (in doubles) of any variant's template with the cell at any shift within reach that lies
    /// wholly inside the strip and has contrast.
    static func naiveScores(_ ink: [Float], width: Int, height: Int, x: Int, y: Int, reachX: Int, reachY: Int) -> [Double] {
        let w = OCRBClassifier.width, h = OCRBClassifier.height, n = w * h, symbols = OCRBTemplates.symbols.count
        var best = [Double](repeating: -1, count: symbols)
        for dy in -reachY...reachY {
            for dx in -reachX...reachX {
                let x0 = x + dx, y0 = y + dy
                guard x0 >= 0, y0 >= 0, x0 + w <= width, y0 + h <= height else { continue }
                var cell = (0..<n).map { Double(ink[(y0 + $0 / w) * width + x0 + $0 % w]) }
                let mean = cell.reduce(0, +) / Double(n)
                cell = cell.map { $0 - mean }
                let norm = cell.map { $0 * $0 }.reduce(0, +).squareRoot()
                guard norm > 0.04 else { continue }
                for k in 0..<(OCRBTemplates.ink.count / n) {
                    var t = (0..<n).map { Double(OCRBTemplates.ink[k * n + $0]) }
                    let tm = t.reduce(0, +) / Double(n)
                    t = t.map { $0 - tm }
                    let tn = t.map { $0 * $0 }.reduce(0, +).squareRoot()
                    let c = zip(cell, t).map { $0 * $1 }.reduce(0, +) / (norm * tn)
                    best[k % symbols] = max(best[k % symbols], c)
                }
            }
        }
        return best
    }

    /// The blocked kernel (four shifts against each template at once) against the definition: a
    /// noisy strip with characters, cells at the strip's edges (shifts cut off by the border) and
    /// a cell whose reach covers only some flat shifts.
    @Test func probeEqualsItsDefinitionOnNoisyInk() {
        var (ink, width, height) = Self.strip("Z7<0OK", offset: (1, 0))
        var generator = SeededGenerator(seed: 9303)
        ink = ink.map { $0 * 0.6 + Float(Int.random(in: 0..<90, using: &generator)) }
        // A flat patch: the cell at x = 0 is blank at two of its shifts, not at the third.
        for r in 0..<height { for c in 0...OCRBClassifier.width { ink[r * width + c] = 40 } }
        let cells = [(0, 0), (MRZLineReader.pad, MRZLineReader.pad), (MRZLineReader.pad + 2 * OCRBClassifier.width, 3),
                     (width - OCRBClassifier.width - 1, MRZLineReader.pad)]
        for reach in [(2, 1), (1, 0), (3, 2)] {
            for (x, y) in cells {
                let fast = ink.withUnsafeBufferPointer {
                    OCRBClassifier.shared.scores(ink: $0, stride: width, rows: height, x: x, y: y, reachX: reach.0, reachY: reach.1)
                }
                let naive = Self.naiveScores(ink, width: width, height: height, x: x, y: y, reachX: reach.0, reachY: reach.1)
                #expect(fast.count == naive.count)
                for s in naive.indices {
                    #expect(abs(Double(fast[s]) - naive[s]) < 1e-4, "cell (\(x), \(y)), reach \(reach), symbol \(s): \(fast[s]) vs \(naive[s])")
                }
            }
        }
    }

    @Test func probeOfBlankPaperIsMinusOne() {
        let width = 3 * OCRBClassifier.width + 8, height = OCRBClassifier.height + 8
        let ink = [Float](repeating: 17, count: width * height)
        let scores = ink.withUnsafeBufferPointer { buffer in
            [(4, 4), (24, 4)].map { OCRBClassifier.shared.scores(ink: buffer, stride: width, rows: height, x: $0.0, y: $0.1, reachX: 2, reachY: 1) }
        }
        #expect(scores == [[Float]](repeating: [Float](repeating: -1, count: 37), count: 2))
    }

    // MARK: Fusing frames

    /// The specimen's birth date `740812` at line 2, column 13: the `0` of `08` is column 15.
    static let specimen = VerificationTests.specimen

    @Test func oneFrameConfidentlyWrongDoesNotOutvoteTwoThatAgree() {
        // Frame 1 reads the 0 as O e^7 likelier (a blurred frame); frames 2 and 3 read it as 0,
        // one of them only e^1.4 more sure of it than of O.
        let wrong = VerificationTests.scores(.td3, Self.specimen, [(1, 15, "O", 7)])
        let right = VerificationTests.scores(.td3, Self.specimen, [(1, 15, "O", -4.5)])
        let weak = VerificationTests.scores(.td3, Self.specimen, [(1, 15, "O", -1.4)])
        let fused = MRZScanner.fused([wrong, right, weak])
        let zero = VerificationTests.symbols.firstIndex(of: "0")!, o = VerificationTests.symbols.firstIndex(of: "O")!
        // Each frame counts at most e^4 against a symbol: -4 + 4 + 1.4 in favor of the 0.
        #expect(abs((fused.evidence[1][15][zero] - fused.evidence[1][15][o]) - 1.4) < 1e-4)
        let reading = MRZDecoder().decode(fused)
        #expect(reading.lines == Self.specimen)
        #expect(reading.verified, "unsure: \(reading.unsureFields)")
        // Summed without the floor, the one wrong frame (+7) outvoted the two (-5.9): the reading
        // overruled the recognizer's fused choice there and was never verified.
        var summed = wrong
        for (l, line) in summed.evidence.enumerated() {
            for p in line.indices {
                for k in 0..<37 { summed.evidence[l][p][k] += right.evidence[l][p][k] + weak.evidence[l][p][k] }
            }
        }
        #expect(!MRZDecoder().decode(summed).verified)
    }

    @Test func framesThatDisagreeAsStronglyLeaveTheFieldUnsure() {
        let o = VerificationTests.scores(.td3, Self.specimen, [(1, 15, "O", 9)])
        let zero = VerificationTests.scores(.td3, Self.specimen, [(1, 15, "O", -9)])
        let reading = MRZDecoder().decode(MRZScanner.fused([o, zero]))
        #expect(!reading.verified)
        #expect(reading.unsureFields.contains("dateOfBirth"))
    }

    @Test func framesThatAgreeAddUpToMoreThanOne() {
        // A name letter e^3 from another in each frame: unsure alone (the unprotected margin is
        // e^4), sure from three frames (e^9).
        let one = VerificationTests.scores(.td3, Self.specimen, [(0, 6, "F", -3)])
        #expect(!MRZDecoder().decode(one).verified)
        #expect(MRZDecoder().decode(MRZScanner.fused([one, one, one])).verified)
    }

    /// The character-height search finds the correlation's peak wherever it lies in 0.7–1.3 of the
    /// locator's estimate (a smooth peak, as the probe's correlations are), within a step's tenth,
    /// and stops at the search's last steps, 0.64 and 1.36.
    @Test(arguments: [0.7, 0.79, 0.86, 0.9, 0.97, 1.03, 1.18, 1.3])
    func theHeightSearchFindsThePeakOfTheProbe(_ peak: Double) {
        var calls: [Double] = []
        let (factor, score) = MRZScanner.heightFactor { f in
            calls.append(f)
            return Float(0.95 - 2 * (f - peak) * (f - peak))
        }
        #expect(score > 0.94 && score <= 0.95)
        #expect(abs(factor - peak) < 0.008, "found \(factor) for a peak at \(peak)")
        #expect(calls.allSatisfy { $0 >= 0.64 - 1e-9 && $0 <= 1.36 + 1e-9 })
        // Three probes around 0.88, one per step climbed, one more past the peak, the parabola's.
        #expect(calls.count <= 4 + Int((abs(peak - 0.88) / 0.08).rounded(.up)) + 1)
    }

    @Test func theHeightSearchStopsAtItsEnds() {
        #expect(abs(MRZScanner.heightFactor { Float(-$0) }.factor - 0.64) < 1e-9)
        #expect(abs(MRZScanner.heightFactor { Float($0) }.factor - 1.36) < 1e-9)
        // Flat (blank paper): the start, without wandering.
        #expect(MRZScanner.heightFactor { _ in -1 } == (0.88, -1))
    }
}
