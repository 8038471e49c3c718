import Foundation
import Testing
import IDKitDocument
import IDKitMRZ

/// A redacted result must not hold a redacted value anywhere. The search is independent of the
/// redactor: every reading of every redacted field in the unredacted result, in every form the
/// sources write it, looked for in every string of the serialized result, the raw MRZ lines and
/// the raw barcode bytes.
@Suite struct RedactionTests {
    static let nameFields: Set<DocumentFieldName> = [.firstName, .lastName, .fullName]

    /// The forms of a value to search for (values under three characters are only checked by field).
    static func forms(_ value: String) -> Set<String> {
        var out: Set<String> = [value.uppercased(), value.uppercased().replacingOccurrences(of: " ", with: "<")]
        let b = Array(value.utf8)
        if b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-") {
            let y = String(value.prefix(4)), m = String(value.dropFirst(5).prefix(2)), d = String(value.suffix(2))
            out.formUnion([y + m + d, m + d + y, String(y.suffix(2)) + m + d])
        }
        for word in value.uppercased().split(separator: " ") { out.insert(String(word)) }
        return out.filter { $0.count >= 3 }
    }

    /// Every string in a JSON tree (keys excluded: they are the contract's names).
    static func strings(_ json: Any) -> [String] {
        switch json {
        case let s as String: return [s]
        case let a as [Any]: return a.flatMap(strings)
        case let o as [String: Any]: return o.values.flatMap(strings)
        default: return []
        }
    }

    static func haystack(_ r: DocumentResult) throws -> [String] {
        // `redacted` names the fields redacted: contract names, not values (`issuingAuthority`
        // holds the letters of AUT).
        var json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(r)) as? [String: Any])
        json["redacted"] = nil
        var all = strings(json).map { $0.uppercased() }
        all += (r.raw.mrz ?? []).map { $0.uppercased() }
        if let bytes = r.raw.barcode { all.append(String(decoding: bytes.map { $0 }, as: Unicode.ASCII.self).uppercased()) }
        return all
    }

    func check(_ c: MergeCase, _ settings: RedactionSettings) throws {
        let input = c.documentInput
        let plain = try DocumentMerger(referenceDate: input.referenceDate!).merge(input)
        let redacted = try DocumentMerger(referenceDate: input.referenceDate!, redaction: .fixed(settings)).merge(input)
        var fields = settings.fields
        if !fields.isDisjoint(with: Self.nameFields) { fields.formUnion(Self.nameFields) }
        let hay = try Self.haystack(redacted)
        // A text that is also the value of a field left visible may show (a nationality and an
        // issuing State that are both AUT, one of them redacted).
        var visible = Set<String>()
        for name in DocumentFieldName.allCases where !fields.contains(name) {
            for (_, value) in plain[name].readings.all where !value.isEmpty { visible.formUnion(Self.forms(value)) }
        }
        for name in fields {
            for (_, value) in plain[name].readings.all where !value.isEmpty {
                for form in Self.forms(value) where !visible.contains(form) {
                    #expect(!hay.contains { $0.contains(form) }, "\(c.id): \(name.rawValue) '\(form)' leaked in \(hay.filter { $0.contains(form) })")
                }
            }
            if name == .documentNumber, let visible = settings.documentNumber, let original = plain[name].value {
                // Only the visible ends remain, and never the whole number.
                let masked = try #require(redacted[name].value)
                #expect(masked.count == original.count)
                #expect(masked.filter { $0 != "*" }.count <= visible.prefixVisible + visible.suffixVisible)
            } else {
                #expect(redacted[name].value == nil, "\(c.id): \(name.rawValue) kept a value")
                #expect(redacted[name].readings.isEmpty)
            }
            if plain[name].value != nil { #expect(redacted.redacted.contains(name.rawValue)) }
        }
        if settings.redactMRZ { #expect(redacted.raw.mrz == nil) }
        if settings.redactBarcode { #expect(redacted.raw.barcode == nil) }
        if fields.contains(.dateOfBirth) { #expect(redacted.derived.age == nil) }
        if !fields.isDisjoint(with: [.documentNumber, .dateOfBirth, .dateOfExpiry]) {
            #expect(redacted.chipAccess?.kEnc == nil)
        }
    }

    @Test(arguments: MergeCase.all)
    func everyFieldAlone(_ c: MergeCase) throws {
        for field in DocumentFieldName.allCases {
            try check(c, RedactionSettings(mode: .fullResult, fields: [field]))
        }
    }

    /// Random documents (every merge case) and random settings from a seeded generator.
    @Test func randomSettingsLeakNothing() throws {
        var rng = SeededGenerator(seed: 0x1D_C0DE)
        for round in 0..<300 {
            let c = MergeCase.all[round % MergeCase.all.count]
            let fields = Set(DocumentFieldName.allCases.filter { _ in Bool.random(using: &rng) })
            let visible = Bool.random(using: &rng)
                ? DocumentNumberRedaction(prefixVisible: Int.random(in: 0...3, using: &rng), suffixVisible: Int.random(in: 0...4, using: &rng))
                : nil
            let settings = RedactionSettings(mode: Bool.random(using: &rng) ? .fullResult : .resultFieldsOnly, fields: fields,
                                             documentNumber: visible, redactMRZ: Bool.random(using: &rng),
                                             redactBarcode: Bool.random(using: &rng))
            try check(c, settings)
        }
    }

    @Test func documentNumberKeepsOnlyItsVisibleEnds() throws {
        let c = MergeCase.all.first { $0.id == "td3-specimen-with-front-viz" }!
        let settings = RedactionSettings(mode: .fullResult, fields: [.documentNumber],
                                         documentNumber: DocumentNumberRedaction(prefixVisible: 1, suffixVisible: 2))
        let r = try DocumentMerger(referenceDate: CalendarDate(year: 2010, month: 6, day: 1), redaction: .fixed(settings)).merge(c.documentInput)
        #expect(r[.documentNumber].value == "L******C3")
        #expect(r[.documentNumber].readings == [.mrz: "L******C3", .vizFront: "L******C3"])
        // The MRZ loses the whole field, its check digit and the composite.
        #expect(r.raw.mrz?[1] == "**********UTO7408122F1204159ZE184226B<<<<<1*")
        // Visible ends that would cover the whole number show none of it.
        let all = RedactionSettings(mode: .fullResult, fields: [.documentNumber], documentNumber: DocumentNumberRedaction(prefixVisible: 5, suffixVisible: 4))
        #expect(try DocumentMerger(redaction: .fixed(all)).merge(c.documentInput)[.documentNumber].value == "*********")
    }

    @Test func barcodeElementsAreMaskedInPlace() throws {
        let c = MergeCase.all.first { $0.id == "aamva-licence-with-us-viz" }!
        let settings = RedactionSettings(mode: .resultFieldsOnly, fields: [.dateOfBirth, .address])
        let r = try DocumentMerger(referenceDate: CalendarDate(year: 2025, month: 6, day: 1), redaction: .fixed(settings)).merge(c.documentInput)
        let text = String(decoding: try #require(r.raw.barcode), as: Unicode.ASCII.self)
        #expect(text.contains("DBB********"))
        #expect(text.contains("DAG***********"))
        #expect(!text.contains("03161951"))
        #expect(text.contains("DCSGARCIA"))      // what is not redacted stays
        #expect(r.raw.barcode?.count == c.documentInput.barcode?.count)
    }

    @Test func imageOnlyLeavesTheResultAndResultOnlyLeavesTheImage() throws {
        let c = MergeCase.all.first { $0.id == "td3-specimen-with-front-viz" }!
        let imageOnly = RedactionSettings(mode: .imageOnly, fields: [.lastName], redactMRZ: true)
        let r = try DocumentMerger(redaction: .fixed(imageOnly)).merge(c.documentInput)
        #expect(r[.lastName].value == "ERIKSSON")
        #expect(r.redacted.isEmpty)
        // The image half of this test is in IDKitScanTests (ScanRedactionTests): pixels are the
        // scanner's, IDKitDocument never touches them.
    }

    @Test func aResolverChoosesSettingsPerDocument() throws {
        let policy = RedactionPolicy.resolver { documentClass in
            documentClass?.type == .driverLicense
                ? RedactionSettings(mode: .fullResult, fields: [.address]) : RedactionSettings(mode: .fullResult, fields: [.personalIdNumber])
        }
        let license = MergeCase.all.first { $0.id == "aamva-licence-with-us-viz" }!
        let passport = MergeCase.all.first { $0.id == "td3-specimen-with-front-viz" }!
        let a = try DocumentMerger(redaction: policy).merge(license.documentInput)
        let b = try DocumentMerger(redaction: policy).merge(passport.documentInput)
        #expect(a.redacted == ["address"])
        #expect(a[.address].value == nil)
        #expect(b.redacted == ["personalIdNumber"])
        #expect(b[.personalIdNumber].value == nil)
        #expect(b.raw.mrz?[1].contains("ZE184226B") == false)
    }
}
