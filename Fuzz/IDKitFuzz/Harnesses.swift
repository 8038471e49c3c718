import Foundation
import IDKitAAMVA
import IDKitBarcode
import IDKitChip
import IDKitDocument
import IDKitImage
import IDKitMRZ
import IDKitScan

/// What each fuzz harness feeds with the input bytes. Every harness also checks what must always
/// hold (an oracle), so that a wrong answer, not only a crash, stops the fuzzer.
enum Harness: String, CaseIterable {
    /// MRZ text through the parser (String and byte entry points), the corrector and the JSON writer.
    case mrz
    /// AAMVA payloads through the parser, every field, every subfile and the JSON report.
    case aamva
    /// `idkit merge` input JSON through the merge, with redaction settings taken from the input;
    /// oracle: no redacted value (3+ characters) anywhere in the serialized result.
    case merge
    /// PNG, JPEG and PGM bytes through our decoders, with small limits.
    case image
    /// Small images through the whole scan: locate, read, decode, quality, barcodes.
    case scan
    /// Chip files (issue 17): every LDS reader, EF.SOD and passive authentication, a master list,
    /// and secure messaging's unwrap. Oracle: the report is valid JSON and never `passed` (no
    /// CSCA is given, so nothing can be).
    case chip

    static let imageLimits = ImageLimits(maxPixels: 1_000_000, maxFileBytes: 2 << 20)

    func run(_ bytes: [UInt8]) {
        switch self {
        case .mrz: Self.mrz(bytes)
        case .aamva: Self.aamva(bytes)
        case .merge: Self.merge(bytes)
        case .image: Self.image(bytes)
        case .scan: Self.scan(bytes)
        case .chip: Self.chip(bytes)
        }
    }

    static func mrz(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let parser = MRZParser(referenceDate: CalendarDate(year: 2025, month: 1, day: 1))
        if let result = try? parser.parse(text) {
            _ = result.fields
            var w = JSONWriter(capacity: 1024)
            w.beginObject(); result.writeJSONMembers(to: &w); w.endObject()
            // Oracle: the JSON the CLI prints must be valid JSON.
            guard (try? JSONSerialization.jsonObject(with: Data(w.bytes))) != nil else {
                fatalError("MRZ JSON is not valid JSON: \(String(decoding: w.bytes, as: UTF8.self))")
            }
        }
        _ = bytes.withUnsafeBufferPointer { try? parser.parse(utf8: $0) }
        _ = try? MRZCorrector(parser: parser).correct(text)
    }

    static func aamva(_ bytes: [UInt8]) {
        guard let payload = try? AAMVAParser().parse(bytes) else { return }
        _ = payload.fields
        _ = payload.subfiles
        let json = AAMVAReport(payload).jsonString()
        guard (try? JSONSerialization.jsonObject(with: Data(json.utf8))) != nil else {
            fatalError("AAMVA JSON is not valid JSON: \(json)")
        }
    }

    static func merge(_ bytes: [UInt8]) {
        guard let input = try? DocumentInput(json: bytes) else { return }
        // Redaction settings from the input's length and first byte: every field set is reached.
        let selector = (bytes.first.map(Int.init) ?? 0) ^ (bytes.count << 3)
        var fields = Set<DocumentFieldName>()
        for (i, f) in DocumentFieldName.allCases.enumerated() where selector & (1 << (i % 14)) != 0 { fields.insert(f) }
        let settings = RedactionSettings(mode: .fullResult, fields: fields,
                                         documentNumber: selector & 0x4000 != 0 ? DocumentNumberRedaction(prefixVisible: 1, suffixVisible: 2) : nil,
                                         redactMRZ: selector & 0x8000 != 0, redactBarcode: selector & 0x10000 != 0)
        let reference = input.referenceDate ?? CalendarDate(year: 2025, month: 1, day: 1)
        guard let plain = try? DocumentMerger(referenceDate: reference).merge(input),
              let redacted = try? DocumentMerger(referenceDate: reference, redaction: .fixed(settings)).merge(input),
              let data = try? JSONEncoder().encode(redacted) else { return }
        // Oracle: no redacted value anywhere in the serialized result or its raw data.
        var effective = settings.fields
        if !effective.isDisjoint(with: [.firstName, .lastName, .fullName]) { effective.formUnion([.firstName, .lastName, .fullName]) }
        // Every free-text string of the result (values, readings, raw data, messages, class,
        // chip data) — not the fixed vocabulary (`mismatch` holds the letters of a redacted `SMA`).
        _ = data
        var texts: [String] = []
        for name in DocumentFieldName.allCases {
            let field = redacted[name]
            if let v = field.value { texts.append(v) }
            texts += field.readings.all.map(\.value)
        }
        texts += redacted.raw.mrz ?? []
        texts.append(String(decoding: redacted.raw.barcode ?? [], as: UTF8.self))
        texts += redacted.warnings.map(\.message)
        texts += [redacted.documentClass?.country, redacted.documentClass?.region, redacted.chipAccess?.mrzInformation].compactMap { $0 }
        let haystack = texts.joined(separator: "\n").asciiUppercased
        for name in effective {
            for (_, value) in plain[name].readings.all where value.utf8.count >= 3 {
                if name == .documentNumber, settings.documentNumber != nil, value.utf8.count <= 3 { continue }
                // ASCII case only, as the redactor compares: Unicode upper-casing would turn the
                // printed "Großmann" into "GROSSMANN" and find a redacted "SMA" in it.
                let upper = value.asciiUppercased
                if haystack.contains(upper) {
                    fatalError("redacted \(name.rawValue) value '\(value)' found in the result")
                }
            }
        }
    }

    /// Gray and color decoding of every format. Oracle: both succeed or fail together, at one size.
    static func image(_ bytes: [UInt8]) {
        let gray = try? ImageDecoder.decode(bytes, limits: Self.imageLimits)
        let color = try? ImageDecoder.decodeColorPage(bytes, limits: Self.imageLimits).image
        if (gray == nil) != (color == nil) || (gray.map { ($0.width, $0.height) } ?? (0, 0)) != (color.map { ($0.width, $0.height) } ?? (0, 0)) {
            fatalError("gray and color decoding disagree: \(String(describing: gray.map { ($0.width, $0.height) })) against \(String(describing: color.map { ($0.width, $0.height) }))")
        }
    }

    static func scan(_ bytes: [UInt8]) {
        guard let color = try? ImageDecoder.decodeColorPage(bytes, limits: ImageLimits(maxPixels: 400_000, maxFileBytes: 1 << 20)).image else { return }
        let scanner = DocumentScanner(readBarcodes: ProcessInfo.processInfo.environment["IDKIT_FUZZ_NO_BARCODES"] == nil)
        let scan = scanner.scan(color.gray)
        // Oracle: a verified reading is a valid MRZ.
        if scan.reading?.verified == true, scan.parsed?.isValid != true {
            fatalError("verified reading that does not parse as valid: \(scan.reading!.lines)")
        }
        // Detection and crops: whatever outlines come out, the warps stay within their limits.
        _ = scanner.crops(of: scan, in: color, dpi: 50)
    }
}

extension Harness {
    static func chip(_ bytes: [UInt8]) {
        let pa = PassiveAuthentication(sod: bytes, dataGroups: [1: bytes, 15: bytes], referenceDate: "2025-01-01")
        var w = JSONWriter(capacity: 2048)
        pa.writeJSON(to: &w)
        guard (try? JSONSerialization.jsonObject(with: Data(w.bytes))) != nil else {
            fatalError("passive authentication JSON is not valid JSON: \(String(decoding: w.bytes, as: UTF8.self))")
        }
        if pa.result == .passed { fatalError("passed without a CSCA") }
        _ = try? EFCOM(bytes)
        _ = try? DataGroup1(bytes)
        _ = try? DataGroup2(bytes)
        _ = try? DataGroup7(bytes)
        var card = JSONWriter(capacity: 1024)
        CardSecurity(bytes).writeJSON(to: &card)
        _ = try? AdditionalDetails(bytes, group: 11)
        _ = try? AdditionalDetails(bytes, group: 12)
        _ = try? SecurityInfos(bytes)
        if let key = try? DataGroup15(bytes) {
            _ = ActiveAuthentication.verify(dg15: key, challenge: [1, 2, 3, 4, 5, 6, 7, 8], signature: Array(bytes.suffix(128)))
        }
        _ = try? CSCAStore(masterList: bytes)
        if var sm = try? SecureMessaging(cipher: bytes.count % 2 == 0 ? .tdes : .aes, ksEnc: [UInt8](repeating: 1, count: 16),
                                         ksMac: [UInt8](repeating: 2, count: 16), ssc: [UInt8](repeating: 0, count: bytes.count % 2 == 0 ? 8 : 16)) {
            _ = try? sm.unwrap(bytes)
            _ = try? sm.wrap(bytes)
        }
    }
}

extension String {
    /// Upper case for ASCII letters only.
    var asciiUppercased: String {
        String(decoding: utf8.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
    }
}
