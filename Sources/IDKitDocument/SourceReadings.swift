import IDKitMRZ
import IDKitAAMVA

/// Each source's readings, normalised for comparison, with what the comparison needs besides
/// the text: the ISO readings an ambiguous VIZ date may stand for, and whether an MRZ name may be cut.
struct SourceReadings {
    var values: [DocumentSource: [DocumentFieldName: String]] = [:]
    /// VIZ dates that read two ways (`03/04/1990`): every ISO reading, most likely first.
    var dateCandidates: [DocumentSource: [DocumentFieldName: [String]]] = [:]
    /// The MRZ name field reached its last position, so its names may be truncated (9303-3 §4.6).
    var mrzNameMayBeTruncated = false
    /// Raw forms of each value as it stands in its source (MRZ `YYMMDD`, names with `<`, VIZ text),
    /// for redaction to search for.
    var rawForms: [DocumentFieldName: Set<String>] = [:]

    mutating func addMRZ(_ mrz: MRZResult, reference: CalendarDate) {
        let f = mrz.fields
        var v: [DocumentFieldName: String] = [:]
        v[.lastName] = f.primaryIdentifier
        v[.firstName] = f.secondaryIdentifier
        v[.fullName] = f.secondaryIdentifier.isEmpty ? f.primaryIdentifier : f.secondaryIdentifier + " " + f.primaryIdentifier
        v[.documentNumber] = f.documentNumber
        if mrz.format == .td3 { v[.personalIdNumber] = f.optionalData1.map(Self.withoutFillers) }
        v[.dateOfBirth] = DocumentDate.fromMRZ(f.dateOfBirth, resolved: mrz.dateOfBirth, kind: .birth, reference: reference)
        if let expiry = f.dateOfExpiry {
            v[.dateOfExpiry] = DocumentDate.fromMRZ(expiry, resolved: mrz.dateOfExpiry, kind: .expiry, reference: reference)
        }
        v[.sex] = f.sex
        v[.nationality] = f.nationality
        v[.issuingState] = f.issuingState
        values[.mrz] = v
        if let length = mrz.format.nameFieldLength {
            let used = f.primaryIdentifier.utf8.count + (f.secondaryIdentifier.isEmpty ? 0 : 2 + f.secondaryIdentifier.utf8.count)
            mrzNameMayBeTruncated = used >= length
        }
        for (name, raw) in [(DocumentFieldName.dateOfBirth, f.dateOfBirth), (.dateOfExpiry, f.dateOfExpiry ?? ""),
                            (.lastName, f.primaryIdentifier), (.firstName, f.secondaryIdentifier),
                            (.documentNumber, f.documentNumber)] where !raw.isEmpty {
            rawForms[name, default: []].insert(raw)
            rawForms[name, default: []].insert(raw.replacingSpaces(with: "<"))
        }
    }

    mutating func addAAMVA(_ payload: AAMVAPayload) {
        let f = payload.fields
        var v: [DocumentFieldName: String] = [:]
        v[.lastName] = f.lastName
        if let first = f.firstName {
            v[.firstName] = [first, f.middleName ?? ""].filter { !$0.isEmpty }.joined(separator: " ")
        } else {
            v[.firstName] = f.middleName
        }
        v[.fullName] = f.fullName
        v[.documentNumber] = f.documentNumber
        v[.additionalDocumentNumber] = f.documentDiscriminator
        v[.dateOfBirth] = f.dateOfBirth
        v[.dateOfExpiry] = f.dateOfExpiry
        v[.dateOfIssue] = f.dateOfIssue
        v[.sex] = f.sex
        v[.issuingState] = payload.country
        v[.issuingJurisdiction] = payload.jurisdiction?.code ?? f.state
        let street = [f.street, f.street2].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        let region = [f.state, f.postalCode].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        let address = [street, f.city ?? "", region].filter { !$0.isEmpty }.joined(separator: ", ")
        if f.street != nil || f.city != nil || f.state != nil || f.postalCode != nil { v[.address] = address }
        values[.barcode] = v
        // The elements as they stand in the payload, so that redaction finds every copy.
        for subfile in payload.subfiles {
            for element in subfile.elements {
                if let name = Self.aamvaElementFields[element.id], !element.value.trimmingSpaces.isEmpty {
                    rawForms[name, default: []].insert(element.value.trimmingSpaces)
                }
            }
        }
    }

    /// The AAMVA elements (all versions) that carry each merged field.
    static let aamvaElementFields: [String: DocumentFieldName] = [
        "DCS": .lastName, "DAB": .lastName, "DAC": .firstName, "DCT": .firstName, "DAD": .firstName,
        "DAA": .fullName, "DAQ": .documentNumber, "DCF": .additionalDocumentNumber, "DBB": .dateOfBirth,
        "DBA": .dateOfExpiry, "DBD": .dateOfIssue, "DAG": .address, "DAH": .address, "DAI": .address,
        "DAJ": .issuingJurisdiction, "DAK": .address, "DBC": .sex,
    ]

    mutating func addVIZ(_ viz: VIZReading, as source: DocumentSource, monthFirst: Bool, reference: CalendarDate,
                         warnings: inout [DocumentWarning]) {
        var v: [DocumentFieldName: String] = [:]
        for (name, raw) in viz.fields {
            let text = raw.trimmingSpaces
            rawForms[name, default: []].insert(text)
            switch name {
            case .dateOfBirth, .dateOfExpiry, .dateOfIssue:
                let kind: DocumentDate.Kind = name == .dateOfBirth ? .birth : name == .dateOfExpiry ? .expiry : .issue
                let candidates = text.isEmpty ? [] : DocumentDate.candidates(text, monthFirst: monthFirst, kind: kind, reference: reference)
                if let first = candidates.first {
                    v[name] = first
                    dateCandidates[source, default: [:]][name] = candidates
                } else {
                    v[name] = text
                    if !text.isEmpty && !(name == .dateOfExpiry && Self.isPermanent(text)) {
                        warnings.append(DocumentWarning(code: .unreadableDate, message: "\(source.rawValue).\(name.rawValue): not a date IDKit reads; kept as given"))
                    }
                }
            case .sex:
                let u = text.uppercased()
                v[name] = u == "<" ? "" : ["M", "MALE"].contains(u) ? "M" : ["F", "FEMALE"].contains(u) ? "F" : u
            case .lastName, .firstName, .fullName:
                v[name] = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            default:
                v[name] = text
            }
        }
        values[source] = v
    }

    static func isPermanent(_ text: String) -> Bool {
        ["PERMANENT", "UNLIMITED", "INDEFINITE", "NONE", "NON-EXPIRING", "NO EXPIRY"].contains(text.uppercased())
    }

    static func withoutFillers(_ text: String) -> String {
        var s = Substring(text)
        while s.first == "<" { s.removeFirst() }
        while s.last == "<" { s.removeLast() }
        return String(s)
    }

    // MARK: Data match

    func dataMatch() -> DataMatch {
        DataMatch(documentNumber: state(.documentNumber), dateOfBirth: state(.dateOfBirth),
                  dateOfExpiry: state(.dateOfExpiry), lastName: state(.lastName), firstName: state(.firstName))
    }

    /// `notPerformed` with fewer than two non-empty readings; else `match` when every pair agrees.
    func state(_ name: DocumentFieldName) -> DataMatchState {
        let present = DocumentSource.allCases.compactMap { s in values[s]?[name].flatMap { $0.isEmpty ? nil : (s, $0) } }
        guard present.count >= 2 else { return .notPerformed }
        for i in 0..<present.count {
            for j in (i + 1)..<present.count where !agree(name, present[i], present[j]) { return .mismatch }
        }
        return .match
    }

    func agree(_ name: DocumentFieldName, _ a: (DocumentSource, String), _ b: (DocumentSource, String)) -> Bool {
        switch name {
        case .documentNumber:
            return Self.documentNumberKey(a.1) == Self.documentNumberKey(b.1)
        case .dateOfBirth, .dateOfExpiry, .dateOfIssue:
            let ca = dateCandidates[a.0]?[name] ?? [a.1], cb = dateCandidates[b.0]?[name] ?? [b.1]
            // A partial MRZ date (`1974-08`) agrees with any date in that month.
            return ca.contains { x in cb.contains { y in x == y || x.hasPrefix(y + "-") || y.hasPrefix(x + "-") } }
        case .lastName, .firstName, .fullName:
            return MRZTransliteration.matches(a.1, b.1, bIsTruncated: b.0 == .mrz && mrzNameMayBeTruncated)
                || MRZTransliteration.matches(b.1, a.1, bIsTruncated: a.0 == .mrz && mrzNameMayBeTruncated)
        default:
            return a.1.uppercased() == b.1.uppercased()
        }
    }

    /// Document numbers with fillers, spaces and hyphens removed, upper case.
    static func documentNumberKey(_ text: String) -> String {
        String(text.uppercased().filter { $0 != "<" && $0 != " " && $0 != "-" })
    }
}

extension String {
    func replacingSpaces(with replacement: Character) -> String {
        String(map { $0 == " " ? replacement : $0 })
    }
}
