import Foundation

/// Writes an MRZ from field values, computing every check digit, so that
/// `MRZParser().parse(MRZGenerator.generate(fields, format: f)).fields == fields` for fields that fit.
///
/// Field values are given as ``MRZFields`` holds them: names with spaces between components, codes and
/// optional data without trailing fillers, dates as six raw characters. Names are transliterated and
/// truncated by the ICAO 9303-3 rules when they do not fit.
public enum MRZGenerator {
    public static func generate(_ fields: MRZFields, format: MRZFormat) throws(MRZError) -> String {
        let layout = MRZLayout.of(format)
        let width = format.lineLength
        var bytes = [UInt8](repeating: UInt8(ascii: "<"), count: width * format.lineCount)
        func put(_ value: String, _ span: Span, _ field: String) throws(MRZError) {
            let v = Array(value.utf8)
            guard v.count <= span.count else {
                throw MRZError(kind: .invalidField, line: nil, column: nil,
                               expected: "\(field) of at most \(span.count) characters for \(format.rawValue)",
                               found: "\(v.count) characters ('\(value)')")
            }
            for (i, b) in v.enumerated() {
                guard MRZCheckDigit.isMRZCharacter(b) else {
                    throw MRZError(kind: .invalidField, line: nil, column: nil,
                                   expected: "\(field) in A–Z, 0–9 and '<'", found: "'\(value)'")
                }
                bytes[span.line * width + span.start + i] = b
            }
        }
        func index(_ p: Position) -> Int { p.line * width + p.column }
        func digit<S: Sequence>(_ spans: S) -> UInt8 where S.Element == Span {
            var sum = 0, n = 0
            for s in spans {
                for i in s.start..<s.end {
                    sum += MRZCheckDigit.value(bytes[s.line * width + i]) * MRZCheckDigit.weights[n % 3]
                    n += 1
                }
            }
            return UInt8(sum % 10) + 0x30
        }

        try put(fields.documentCode, layout.documentCode, "documentCode")
        try put(fields.issuingState, layout.issuingState, "issuingState")
        if let span = layout.nationality { try put(fields.nationality ?? "", span, "nationality") }
        try put(fields.dateOfBirth, layout.dateOfBirth, "dateOfBirth")
        try put(fields.sex.isEmpty ? "<" : fields.sex, Span(layout.sex.line, layout.sex.column, 1), "sex")
        if let span = layout.dateOfExpiry { try put(fields.dateOfExpiry ?? "", span, "dateOfExpiry") }
        if let span = layout.optionalData2 { try put(fields.optionalData2 ?? "", span, "optionalData2") }

        if let span = layout.name {
            try put(encodeName(primary: fields.primaryIdentifier, secondary: fields.secondaryIdentifier, width: span.count), span, "name")
        } else if let primary = layout.primaryName, let secondary = layout.secondaryName {
            try put(encodeName(primary: fields.primaryIdentifier, secondary: "", width: primary.count), primary, "primaryIdentifier")
            try put(encodeName(primary: fields.secondaryIdentifier, secondary: "", width: secondary.count), secondary, "secondaryIdentifier")
        }

        // Document number, with the TD1/TD2 long-number rule (ICAO 9303-5 §4.2.4).
        let number = Array(fields.documentNumber.utf8)
        let optional1 = fields.optionalData1 ?? ""
        if number.count > layout.documentNumber.count, let continuation = layout.longNumberContinuation {
            let head = String(decoding: number.prefix(layout.documentNumber.count), as: UTF8.self)
            let tail = String(decoding: number.dropFirst(layout.documentNumber.count), as: UTF8.self)
            guard let check = MRZCheckDigit.compute(number) else {
                throw MRZError(kind: .invalidField, line: nil, column: nil, expected: "documentNumber in A–Z, 0–9 and '<'",
                               found: "'\(fields.documentNumber)'")
            }
            let rest = tail + String(check) + (optional1.isEmpty ? "" : "<" + optional1)
            try put(head, layout.documentNumber, "documentNumber")
            try put(rest, continuation, "documentNumber continuation and optionalData1")
            bytes[index(layout.documentNumberCheck)] = UInt8(ascii: "<")
        } else {
            try put(fields.documentNumber, layout.documentNumber, "documentNumber")
            if let span = layout.optionalData1 { try put(optional1, span, "optionalData1") }
            bytes[index(layout.documentNumberCheck)] = digit([layout.documentNumber])
        }
        bytes[index(layout.dateOfBirthCheck)] = digit([layout.dateOfBirth])
        if let span = layout.dateOfExpiry, let p = layout.dateOfExpiryCheck { bytes[index(p)] = digit([span]) }
        if let span = layout.optionalData1, let p = layout.optionalDataCheck {
            // An empty personal number takes a filler check digit, as German passports print it.
            bytes[index(p)] = optional1.isEmpty ? UInt8(ascii: "<") : digit([span])
        }
        if let p = layout.composite { bytes[index(p)] = digit(layout.compositeSpans) }

        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 2)
        for line in 0..<format.lineCount {
            if line > 0 { out.append(0x0A) }
            out.append(contentsOf: bytes[(line * width)..<((line + 1) * width)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// ICAO 9303-3 §6 transliteration into the MRZ alphabet, in the recommended forms (`Ä`→`AE`,
    /// `ß`→`SS`, `Ø`→`OE`, Cyrillic by Table B; other marked Latin letters lose their marks; see
    /// ``MRZTransliteration``). Spaces, hyphens and commas become `<`; apostrophes and full stops vanish.
    public static func transliterate(_ name: String) -> String {
        var out = ""
        for ch in name {
            if let forms = MRZTransliteration.alternatives(ch) {
                out += forms.first ?? ""
            } else if ch == " " || ch == "-" || ch == "," || ch == "<" {
                out += "<"
            }
        }
        return out
    }

    /// Primary `<<` secondary, truncated to `width` by the ICAO 9303-3 rule: the secondary identifier's
    /// components are shortened first, from the last one, down to initials; then the primary's; a name
    /// still too long is cut at the field's end.
    public static func encodeName(primary: String, secondary: String, width: Int) -> String {
        func components(_ s: String) -> [String] {
            transliterate(s).split(separator: "<").map(String.init)
        }
        var p = components(primary), s = components(secondary)
        func render() -> String {
            let head = p.joined(separator: "<")
            return s.isEmpty ? head : head + "<<" + s.joined(separator: "<")
        }
        var text = render()
        for part in [1, 0] {
            var i = (part == 1 ? s.count : p.count) - 1
            while text.utf8.count > width && i >= 0 {
                var c = part == 1 ? s[i] : p[i]
                let excess = text.utf8.count - width
                let keep = max(1, c.count - excess)
                c = String(c.prefix(keep))
                if part == 1 { s[i] = c } else { p[i] = c }
                text = render()
                i -= 1
            }
        }
        if text.utf8.count > width { text = String(text.prefix(width)) }
        return text
    }
}
