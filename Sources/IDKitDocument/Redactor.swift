import IDKitMRZ
import IDKitAAMVA
import IDKitChip

/// Applies ``RedactionSettings`` to a merged result. Redacted fields lose their value and every
/// source's reading (the document number may keep a visible prefix and suffix); then every other
/// place a value could hide is cleaned: the MRZ lines by field position, the barcode by element,
/// and everything left — other fields' readings, raw bytes, warnings — by searching for each
/// redacted value in every form it takes in the sources (ISO and `YYMMDD` dates, `<` names).
struct Redactor {
    let settings: RedactionSettings
    let mrz: MRZResult?
    let aamva: AAMVAPayload?
    let chip: ChipDocument?
    let readings: SourceReadings

    /// Values shorter than this (sex `M`, a one-letter name) are removed by position only: a text
    /// search for them would black out unrelated characters everywhere.
    static let minimumSearchLength = 3

    func redact(_ input: DocumentResult) -> DocumentResult {
        var result = input
        let redacted = settings.effectiveFields
        let secrets = SecretSet(secretForms(redacted, in: input))

        // 1. The fields themselves.
        for name in redacted {
            var field = result[name]
            if name == .documentNumber, let visible = settings.documentNumber {
                field.value = field.value.map(visible.mask)
                field.readings = field.readings.map(visible.mask)
            } else {
                field.value = nil
                field.readings = DocumentReadings()
            }
            result.fields[name] = field
        }
        // 2. Other fields' readings that contain a redacted value (an address with a name in it).
        for name in DocumentFieldName.allCases where !redacted.contains(name) {
            guard var field = result.fields[name] else { continue }
            field.value = field.value.map { scrub($0, secrets) }
            field.readings = field.readings.map { scrub($0, secrets) }
            result.fields[name] = field
        }
        // 3. Raw MRZ and barcode.
        var withheld: [String] = []
        if settings.redactMRZ {
            result.raw.mrz = nil
            if input.raw.mrz != nil { withheld.append("mrz") }
        } else if let lines = result.raw.mrz {
            result.raw.mrz = maskMRZ(lines, redacted).map { scrub($0, secrets) }
        }
        if settings.redactBarcode {
            result.raw.barcode = nil
            if input.raw.barcode != nil { withheld.append("barcode") }
        } else if let bytes = result.raw.barcode {
            result.raw.barcode = scrub(bytes: maskBarcode(bytes, redacted), secrets)
        }
        // The chip's faces, and any redacted value in its reasons (a signer's name holds none, but
        // nothing is assumed).
        if var summary = result.chip {
            if settings.redactFace {
                summary.faces = summary.faces.map { ChipFace(imageType: $0.imageType, width: $0.width, height: $0.height, image: nil) }
                if !summary.faces.isEmpty { withheld.append("face") }
            }
            summary.reasons = summary.reasons.map { scrub($0, secrets) }
            result.chip = summary
        }
        // 4. What is derived from redacted values.
        if redacted.contains(.dateOfBirth) {
            result.derived.age = nil
            result.derived.isUnder18 = nil
            result.derived.isUnder21 = nil
        }
        if redacted.contains(.dateOfExpiry) {
            result.derived.isExpired = nil
            result.derived.isPermanentExpiry = nil
        }
        if !redacted.isDisjoint(with: [.documentNumber, .dateOfBirth, .dateOfExpiry])
            || result.chipAccess?.mrzInformation.map({ scrub($0, secrets) != $0 }) == true, var chip = result.chipAccess {
            chip.mrzInformation = nil
            chip.kSeed = nil
            chip.kEnc = nil
            chip.kMac = nil
            result.chipAccess = chip
        }
        // The class repeats the issuing State and region; a redacted value there goes too.
        if redacted.contains(.issuingState) || result.documentClass?.country.map({ scrub($0, secrets) != $0 }) == true {
            result.documentClass?.country = nil
        }
        if redacted.contains(.issuingJurisdiction) || result.documentClass?.region.map({ scrub($0, secrets) != $0 }) == true {
            result.documentClass?.region = nil
        }
        result.warnings = result.warnings.map { DocumentWarning(code: $0.code, message: scrub($0.message, secrets)) }
        result.redacted = redacted.sorted().map(\.rawValue) + withheld
        return result
    }

    /// Every form a redacted value takes in the inputs and the result, longest first.
    func secretForms(_ redacted: Set<DocumentFieldName>, in result: DocumentResult) -> [String] {
        var forms = Set<String>()
        for name in redacted {
            forms.formUnion(result[name].readings.all.map(\.value))
            if let v = result[name].value { forms.insert(v) }
        }
        for (name, raw) in readings.rawForms where redacted.contains(name) { forms.insert(raw) }
        for f in [mrz?.fields, chip?.dataGroup1?.mrz.fields].compactMap({ $0 }) {
            let raw: [DocumentFieldName: String?] = [.dateOfBirth: f.dateOfBirth, .dateOfExpiry: f.dateOfExpiry,
                                                     .lastName: f.primaryIdentifier, .firstName: f.secondaryIdentifier,
                                                     .documentNumber: f.documentNumber, .personalIdNumber: f.optionalData1]
            for name in redacted {
                guard let value = raw[name] ?? nil, !value.isEmpty else { continue }
                forms.insert(value)
                forms.insert(value.replacingSpaces(with: "<"))
            }
        }
        // DG11 and DG12 as the chip writes them (`SURNAME<<GIVEN<NAMES`, `yyyymmdd`, `<`-separated address).
        let chipElements: [(String, DocumentFieldName)] = [("fullName", .fullName), ("personalNumber", .personalIdNumber),
                                                             ("fullDateOfBirth", .dateOfBirth), ("address", .address)]
        for (element, name) in chipElements where redacted.contains(name) {
            if let value = chip?.personalDetails?[element], !value.isEmpty { forms.insert(value) }
        }
        if redacted.contains(.dateOfIssue), let value = chip?.documentDetails?["dateOfIssue"], !value.isEmpty { forms.insert(value) }
        for subfile in aamva?.subfiles ?? [] {
            for element in subfile.elements {
                guard let name = SourceReadings.aamvaElementFields[element.id], redacted.contains(name) else { continue }
                let value = element.value.trimmingSpaces
                if !value.isEmpty { forms.insert(value) }
            }
        }
        // Dates also as the sources write them: YYYYMMDD, MMDDYYYY (AAMVA US), YYMMDD (MRZ).
        for form in Array(forms) {
            let b = Array(form.utf8)
            if b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-") {
                let y = String(form.prefix(4)), m = String(form.dropFirst(5).prefix(2)), d = String(form.suffix(2))
                forms.formUnion([y + m + d, m + d + y, String(y.suffix(2)) + m + d])
            }
        }
        // Names also as their single words (a redacted "ANNA MARIA" must not survive as "ANNA").
        for name in redacted where [.firstName, .lastName, .fullName].contains(name) {
            for (_, form) in result[name].readings.all {
                for word in form.split(separator: " ") { forms.insert(String(word)) }
            }
        }
        // Non-ASCII letters in both cases (the byte search folds ASCII case only).
        for form in Array(forms) where !form.utf8.allSatisfy({ $0 < 0x80 }) {
            forms.insert(form.uppercased())
            forms.insert(form.lowercased())
        }
        return forms.filter { $0.utf8.count >= Self.minimumSearchLength }.sorted { $0.utf8.count > $1.utf8.count }
    }

    @inline(__always) static func upper(_ b: UInt8) -> UInt8 { b >= 0x61 && b <= 0x7A ? b - 0x20 : b }

    func scrub(_ text: String, _ secrets: SecretSet) -> String {
        let bytes = Array(text.utf8)
        let cleaned = scrub(bytes: bytes, secrets)
        return cleaned == bytes ? text : String(decoding: cleaned, as: UTF8.self)
    }

    /// Replaces every occurrence (ASCII case-insensitive) of each secret with `*`, byte for byte.
    /// Replaces every occurrence (ASCII case-insensitive) of each secret with `*`, longest first.
    func scrub(bytes: [UInt8], _ secrets: SecretSet) -> [UInt8] {
        var out = bytes
        var i = 0
        scan: while i < out.count {
            let candidates = secrets.byFirstByte[Int(Self.upper(out[i]))]
            for s in candidates where i + s.count <= out.count {
                var k = 1
                while k < s.count && Self.upper(out[i + k]) == s[k] { k += 1 }
                if k == s.count {
                    for j in i..<(i + k) { out[j] = UInt8(ascii: "*") }
                    i += k
                    continue scan
                }
            }
            i += 1
        }
        return out
    }

    /// The redacted values' forms, upper-cased and bucketed by first byte, longest first in
    /// each bucket, so that a scan looks at few candidates per byte.
    struct SecretSet {
        var byFirstByte = [[[UInt8]]](repeating: [], count: 256)
        init(_ forms: [String]) {
            for form in forms {
                let bytes = form.utf8.map(Redactor.upper)
                guard let first = bytes.first else { continue }
                byFirstByte[Int(first)].append(bytes)
            }
            for i in byFirstByte.indices where byFirstByte[i].count > 1 { byFirstByte[i].sort { $0.count > $1.count } }
        }
    }

    /// Masks the MRZ positions of redacted fields, and the composite check digit when it covers one.
    func maskMRZ(_ lines: [String], _ redacted: Set<DocumentFieldName>) -> [String] {
        guard let mrz else { return lines }
        var fields = Set<MRZFieldName>()
        for name in redacted {
            switch name {
            case .firstName, .lastName, .fullName: fields.insert(.name)
            case .documentNumber: fields.insert(.documentNumber)
            case .dateOfBirth: fields.insert(.dateOfBirth)
            case .dateOfExpiry: fields.insert(.dateOfExpiry)
            case .sex: fields.insert(.sex)
            case .nationality: fields.insert(.nationality)
            case .issuingState: fields.insert(.issuingState)
            case .personalIdNumber: fields.formUnion([.optionalData1])
            default: break
            }
        }
        if !fields.isDisjoint(with: [.documentNumber, .dateOfBirth, .dateOfExpiry, .optionalData1]) { fields.insert(.composite) }
        var chars = lines.map { Array($0.utf8) }
        for field in fields {
            for r in mrz.format.characterRanges(of: field) where r.line < chars.count {
                for col in r.column..<min(r.column + r.count, chars[r.line].count) { chars[r.line][col] = UInt8(ascii: "*") }
            }
        }
        return chars.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Masks the values of the AAMVA elements that carry redacted fields, where they stand.
    func maskBarcode(_ bytes: [UInt8], _ redacted: Set<DocumentFieldName>) -> [UInt8] {
        guard let aamva else { return bytes }
        var out = bytes
        for subfile in aamva.subfiles {
            for element in subfile.elements {
                guard let name = SourceReadings.aamvaElementFields[element.id], redacted.contains(name) else { continue }
                let start = element.offset + 3
                let count = element.value.unicodeScalars.count
                guard start >= 0, start + count <= out.count else { continue }
                for i in start..<(start + count) { out[i] = UInt8(ascii: "*") }
            }
        }
        return out
    }
}
