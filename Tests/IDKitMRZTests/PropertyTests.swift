import Foundation
import Testing
@testable import IDKitMRZ

/// Seeded properties over generated MRZs (SplitMix64, so failures reproduce).
@Suite struct PropertyTests {
    typealias SplitMix64 = SeededGenerator

    static let reference = CalendarDate(year: 2025, month: 1, day: 1)

    static func randomFields(_ format: MRZFormat, _ rng: inout SplitMix64) -> MRZFields {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let alnum = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        func word(_ n: Int) -> String { String((0..<n).map { _ in letters.randomElement(using: &rng)! }) }
        func code(_ chars: [Character], _ n: Int) -> String { String((0..<n).map { _ in chars.randomElement(using: &rng)! }) }
        // Births in 1940–1999 and expiries in 2000–2040 (relative to the 2025 reference): a valid
        // MRZ cannot expire before its holder was born.
        func date(_ years: ClosedRange<Int>) -> String {
            String(format: "%02d%02d%02d", Int.random(in: years, using: &rng), Int.random(in: 1...12, using: &rng),
                   Int.random(in: 1...28, using: &rng))
        }
        let states = ["UTO", "D", "FRA", "NLD", "GBD", "XXA", "CHE", "USA"]
        let long = (format == .td1 || format == .td2) && Bool.random(using: &rng)
        let number = format == .franceID1988 ? code(Array("0123456789"), 12)
            : code(alnum, long ? Int.random(in: 10...(format == .td1 ? 20 : 12), using: &rng) : Int.random(in: 5...9, using: &rng))
        let primary = word(Int.random(in: 2...8, using: &rng)) + (Bool.random(using: &rng) ? " " + word(3) : "")
        let secondary = Bool.random(using: &rng) ? word(Int.random(in: 2...6, using: &rng)) : ""
        var optional1: String?
        switch format {
        case .td3: optional1 = Bool.random(using: &rng) ? code(alnum, 9) : ""
        case .td1: optional1 = long ? "" : code(alnum, Int.random(in: 0...12, using: &rng))
        case .td2: optional1 = long ? "" : code(alnum, Int.random(in: 0...7, using: &rng))
        case .mrvA: optional1 = code(alnum, Int.random(in: 0...16, using: &rng))
        case .mrvB: optional1 = code(alnum, Int.random(in: 0...8, using: &rng))
        case .franceID1988: optional1 = code(alnum, 6)
        }
        return MRZFields(
            documentCode: format == .td3 ? "P" : (format == .mrvA || format == .mrvB ? "V" : (format == .franceID1988 ? "ID" : "I")),
            issuingState: format == .franceID1988 ? "FRA" : states.randomElement(using: &rng)!,
            documentNumber: number,
            primaryIdentifier: primary, secondaryIdentifier: format == .franceID1988 && secondary.isEmpty ? "A" : secondary,
            nationality: format == .franceID1988 ? nil : states.randomElement(using: &rng)!,
            dateOfBirth: date(40...99), sex: ["M", "F", "X", ""].randomElement(using: &rng)!,
            dateOfExpiry: format == .franceID1988 ? nil : date(0...40),
            optionalData1: optional1, optionalData2: format == .td1 ? code(alnum, Int.random(in: 0...11, using: &rng)) : nil)
    }

    @Test("parse(generate(x)) == x", arguments: MRZFormat.allCases)
    func roundTrip(_ format: MRZFormat) throws {
        var rng = SplitMix64(seed: 9303 &+ UInt64(format.lineLength * format.lineCount))
        let parser = MRZParser(referenceDate: Self.reference)
        for _ in 0..<300 {
            let fields = Self.randomFields(format, &rng)
            let text = try MRZGenerator.generate(fields, format: format)
            let result = try parser.parse(text)
            #expect(result.format == format)
            #expect(result.fields == fields, "\(text)")
            #expect(result.isValid, "\(text): \(result.errors)")
        }
    }

    /// A single changed character in a field that a check digit covers is caught, unless the 7-3-1
    /// scheme cannot see the swap (`<`, `0`, `A`, `K`, `U` all weigh 0 modulo 10; and the pairs whose
    /// values differ by a multiple of 10).
    @Test("single-character changes in covered fields are caught", arguments: [MRZFormat.td1, .td2, .td3, .mrvA, .mrvB])
    func singleChangesCaught(_ format: MRZFormat) throws {
        var rng = SplitMix64(seed: 42 &+ UInt64(format.lineLength))
        let parser = MRZParser(referenceDate: Self.reference)
        let layout = MRZLayout.of(format)
        var covered: [Span] = [layout.documentNumber, layout.dateOfBirth]
        if let doe = layout.dateOfExpiry { covered.append(doe) }
        if layout.optionalDataCheck != nil, let opt = layout.optionalData1 { covered.append(opt) }
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<".utf8)
        var checked = 0
        for _ in 0..<100 {
            var fields = Self.randomFields(format, &rng)
            if fields.documentNumber.count > 9 { fields.documentNumber = String(fields.documentNumber.prefix(9)); if format == .td1 || format == .td2 { fields.optionalData1 = "" } }
            let text = try MRZGenerator.generate(fields, format: format)
            var lines = text.split(separator: "\n").map { Array($0.utf8) }
            let span = covered.randomElement(using: &rng)!
            let column = span.start + Int.random(in: 0..<span.count, using: &rng)
            let original = lines[span.line][column]
            let replacement = alphabet.randomElement(using: &rng)!
            let difference = (MRZCheckDigit.value(replacement) - MRZCheckDigit.value(original) + 100) % 10
            guard difference != 0 else { continue }
            lines[span.line][column] = replacement
            let changed = lines.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n")
            let result = try parser.parse(changed)
            #expect(!result.isValid, "change at \(span.line + 1):\(column + 1) not caught in \(changed)")
            checked += 1
        }
        #expect(checked > 50)
    }
}
