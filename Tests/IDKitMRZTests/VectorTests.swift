import Foundation
import Testing
@testable import IDKitMRZ

/// Every case of `TestVectors/mrz/`, every field, check digit, verdict and issue compared.
@Suite struct VectorTests {
    let parser = MRZParser(referenceDate: TestVectors.referenceDate)

    static let parseCases = TestVectors.specimens.cases + TestVectors.invalid.cases + TestVectors.tricky.cases

    @Test("specimens, invalid and tricky cases", arguments: parseCases)
    func parseCase(_ c: TestVectors.ParseCase) throws {
        let result = try parser.parse(lines: c.lines)
        let e = c.expected
        #expect(result.format.rawValue == e.format)
        #expect(result.isValid == e.valid)
        #expect(result.isValidAcceptingDeviations == e.validWithDeviations)
        let f = result.fields
        let actualFields: [String: String?] = [
            "documentCode": f.documentCode, "issuingState": f.issuingState, "documentNumber": f.documentNumber,
            "primaryIdentifier": f.primaryIdentifier, "secondaryIdentifier": f.secondaryIdentifier,
            "nationality": f.nationality, "dateOfBirth": f.dateOfBirth, "sex": f.sex, "dateOfExpiry": f.dateOfExpiry,
            "optionalData1": f.optionalData1, "optionalData2": f.optionalData2,
        ]
        #expect(actualFields.count == e.fields.count)
        for (key, value) in e.fields {
            #expect(actualFields[key] == value, "field \(key)")
        }
        let cd = result.checkDigits
        let actualChecks: [String: String?] = [
            "documentNumber": cd.documentNumber, "dateOfBirth": cd.dateOfBirth, "dateOfExpiry": cd.dateOfExpiry,
            "optionalData": cd.optionalData, "composite": cd.composite,
        ].mapValues { $0 == .absent ? nil : $0.rawValue }
        for (key, value) in e.checkDigits {
            #expect(actualChecks[key] == value, "check digit \(key)")
        }
        func issues(_ xs: [MRZIssue]) -> [TestVectors.Issue] {
            xs.map { .init(code: $0.code.rawValue, field: $0.field, line: $0.line, column: $0.column) }
        }
        #expect(issues(result.errors) == e.errors)
        #expect(issues(result.warnings) == e.warnings)
        #expect(issues(result.deviations) == e.deviations)
        #expect(result.dateOfBirth?.description == e.resolvedDates["dateOfBirth"] ?? nil)
        #expect(result.dateOfExpiry?.description == e.resolvedDates["dateOfExpiry"] ?? nil)
        for (key, value) in c.published ?? [:] {
            #expect(actualFields[key] == value, "published \(key) from \(c.source)")
        }
        #expect(result.lines == c.lines)
    }

    @Test("structural errors name the kind, line and column", arguments: TestVectors.structural.cases)
    func structural(_ c: TestVectors.StructuralCase) {
        #expect(throws: MRZError.self) { try parser.parse(c.text) }
        do {
            _ = try parser.parse(c.text)
        } catch {
            #expect(error.kind.rawValue == c.expected.kind)
            #expect(error.line == c.expected.line)
            #expect(error.column == c.expected.column)
        }
    }

    @Test("OCR confusions are corrected back to the published MRZ", arguments: TestVectors.ocr.cases)
    func ocr(_ c: TestVectors.OCRCase) throws {
        let correction = try MRZCorrector(parser: parser).correct(c.lines.joined(separator: "\n"))
        #expect(correction.outcome.rawValue == c.expected.outcome)
        #expect(correction.result.lines == c.expected.lines)
        #expect(correction.result.isValid)
        let changes = correction.changes.map {
            TestVectors.OCRCase.Change(line: $0.line, column: $0.column, from: $0.from, to: $0.to)
        }
        #expect(changes == c.expected.changes)
    }

    @Test func vectorCounts() {
        let total = Self.parseCases.count + TestVectors.structural.cases.count + TestVectors.ocr.cases.count
        #expect(total >= 150)
        let states = Set(TestVectors.specimens.cases.map { $0.expected.fields["issuingState"]! })
        #expect(states.count >= 30)
    }
}

/// The fast path and the careful path read every vector alike.
@Suite struct FastPathTests {
    @Test("fast path equals careful path", arguments: VectorTests.parseCases)
    func samePaths(_ c: TestVectors.ParseCase) throws {
        let fast = MRZParser(referenceDate: TestVectors.referenceDate)
        var careful = fast
        careful.usesFastPath = false
        let a = try fast.parse(lines: c.lines), b = try careful.parse(lines: c.lines)
        #expect(a == b)
        #expect(a.fields == b.fields)
    }

    @Test func randomRoundTripsAgree() throws {
        var rng = PropertyTests.SplitMix64(seed: 77)
        let fast = MRZParser(referenceDate: PropertyTests.reference)
        var careful = fast
        careful.usesFastPath = false
        for format in MRZFormat.allCases {
            for _ in 0..<200 {
                let text = try MRZGenerator.generate(PropertyTests.randomFields(format, &rng), format: format)
                #expect(try fast.parse(text) == careful.parse(text), "\(text)")
            }
        }
    }

    /// Random damage — one or two characters replaced by any byte, including illegal ones — is read
    /// alike by both paths, errors included.
    @Test func randomDamageAgrees() {
        var rng = PropertyTests.SplitMix64(seed: 2024)
        let fast = MRZParser(referenceDate: TestVectors.referenceDate)
        var careful = fast
        careful.usesFastPath = false
        let bases = VectorTests.parseCases.map { Array($0.lines.joined(separator: "\n").utf8) }
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<<<<<<<a \n\u{7F}".utf8) + [0xC3, 0x80]
        for _ in 0..<4000 {
            var bytes = bases.randomElement(using: &rng)!
            for _ in 0..<Int.random(in: 1...2, using: &rng) {
                bytes[Int.random(in: 0..<bytes.count, using: &rng)] = alphabet.randomElement(using: &rng)!
            }
            let a = bytes.withUnsafeBufferPointer { b in Result { () throws(MRZError) in try fast.parse(utf8: b) } }
            let b = bytes.withUnsafeBufferPointer { b in Result { () throws(MRZError) in try careful.parse(utf8: b) } }
            #expect(a == b, "\(String(decoding: bytes, as: UTF8.self))")
        }
    }
}
