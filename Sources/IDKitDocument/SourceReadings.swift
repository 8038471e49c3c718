import IDKitMRZ
import IDKitAAMVA
import IDKitChip

/// Each source's readings, normalized for comparison, with what the comparison needs besides
/// the text: the ISO readings an ambiguous VIZ date may stand for, and whether an MRZ name may be cut.
struct SourceReadings {
    /// Every source's reading, by field (``DocumentFieldName/index``).
    var values = [DocumentReadings](repeating: DocumentReadings(), count: DocumentFieldName.allCases.count)
    /// VIZ dates that read two ways (`03/04/1990`): every ISO reading, most likely first; by
    /// source index, then date field (birth, expiry, issue).
    var dateCandidates = [[[String]]](repeating: [[], [], []], count: DocumentSource.allCases.count)
    /// The MRZ name field reached its last position, so its names may be truncated (9303-3 §4.6).
    var mrzNameMayBeTruncated = false
    /// The VIZ values exactly as given, for redaction to search for (the MRZ's and the barcode's
    /// raw forms are taken from their parsed sources only when redaction needs them).
    var rawForms: [(DocumentFieldName, String)] = []

    subscript(_ source: DocumentSource, _ name: DocumentFieldName) -> String? {
        get { values[name.index][source] }
        set { values[name.index][source] = newValue }
    }

    static func dateSlot(_ name: DocumentFieldName) -> Int? {
        switch name {
        case .dateOfBirth: 0
        case .dateOfExpiry: 1
        case .dateOfIssue: 2
        default: nil
        }
    }

    /// The MRZ name field reached its last position in the chip's DG1, and DG11 gave no full name.
    var chipNameMayBeTruncated = false

    mutating func addMRZ(_ mrz: MRZResult, reference: CalendarDate) {
        var v = Writer(source: .mrz)
        v.addMRZ(mrz, reference: reference)
        v.store(into: &self)
        mrzNameMayBeTruncated = Self.nameMayBeTruncated(mrz)
    }

    /// The chip's values: DG1's MRZ, then what DG11 and DG12 hold in full — the name (DG1's may be
    /// cut), the personal number, the four-digit-year date of birth, the address, the place of
    /// birth, the date of issue and the issuing authority.
    mutating func addChip(_ chip: ChipDocument, reference: CalendarDate) {
        var v = Writer(source: .chip)
        if let dg1 = chip.dataGroup1 {
            v.addMRZ(dg1.mrz, reference: reference)
            chipNameMayBeTruncated = Self.nameMayBeTruncated(dg1.mrz)
        }
        if let dg11 = chip.personalDetails {
            if let full = dg11["fullName"], let (last, first) = Self.chipName(full) {
                v[.lastName] = last
                v[.firstName] = first
                v[.fullName] = first.isEmpty ? last : first + " " + last
                chipNameMayBeTruncated = false
            }
            if let number = dg11["personalNumber"].map(Self.withoutFillers), !number.isEmpty { v[.personalIdNumber] = number }
            if let birth = dg11["fullDateOfBirth"].flatMap(Self.chipDate) { v[.dateOfBirth] = birth }
            if let address = dg11["address"] {
                v[.address] = address.split(separator: "<", omittingEmptySubsequences: true)
                    .map { String($0).trimmingSpaces }.filter { !$0.isEmpty }.joined(separator: ", ")
            }
        }
        if let issue = chip.documentDetails?["dateOfIssue"].flatMap(Self.chipDate) { v[.dateOfIssue] = issue }
        // ICAO 9303-10 §4.7.11–12: DG11's place of birth and DG12's issuing authority, `<` between
        // their parts as in the address.
        func parts(_ text: String) -> String {
            text.split(separator: "<", omittingEmptySubsequences: true).map { String($0).trimmingSpaces }.filter { !$0.isEmpty }.joined(separator: ", ")
        }
        if let place = chip.personalDetails?["placeOfBirth"].map(parts), !place.isEmpty { v[.placeOfBirth] = place }
        if let authority = chip.documentDetails?["issuingAuthority"].map(parts), !authority.isEmpty { v[.issuingAuthority] = authority }
        v.store(into: &self)
    }

    static func nameMayBeTruncated(_ mrz: MRZResult) -> Bool { mrz.nameMayBeTruncated }

    /// DG11's name of the holder in full (9303-10 §4.7.11, tag 5F0E): the primary identifier,
    /// `<<`, the secondary identifier, with `<` between their parts.
    static func chipName(_ text: String) -> (last: String, first: String)? {
        let bytes = Array(text.utf8)
        var split = bytes.count
        for i in 0..<max(0, bytes.count - 1) where bytes[i] == UInt8(ascii: "<") && bytes[i + 1] == UInt8(ascii: "<") {
            split = i
            break
        }
        func words(_ part: ArraySlice<UInt8>) -> String {
            String(decoding: part, as: UTF8.self).split(whereSeparator: { $0 == "<" || $0 == " " }).joined(separator: " ")
        }
        let last = words(bytes[..<split]), first = split < bytes.count ? words(bytes[(split + 2)...]) : ""
        return last.isEmpty && first.isEmpty ? nil : (last, first)
    }

    /// A DG11/DG12 date (`yyyymmdd`, 9303-10 §4.7.11–12) as ISO 8601, when it is a real date.
    static func chipDate(_ text: String) -> String? {
        let digits = Array(text.utf8)
        guard digits.count == 8, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let iso = String(text.prefix(4)) + "-" + String(text.dropFirst(4).prefix(2)) + "-" + String(text.suffix(2))
        return CalendarDate(iso8601: iso) != nil ? iso : nil
    }

    mutating func addAAMVA(_ payload: AAMVAPayload) {
        let f = payload.fields
        var v = Writer(source: .barcode)
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
        v.store(into: &self)
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
        var v = Writer(source: source)
        for (name, raw) in viz.fields {
            let text = raw.trimmingSpaces
            rawForms.append((name, text))
            switch name {
            case .dateOfBirth, .dateOfExpiry, .dateOfIssue:
                let kind: DocumentDate.Kind = name == .dateOfBirth ? .birth : name == .dateOfExpiry ? .expiry : .issue
                let candidates = text.isEmpty ? [] : DocumentDate.candidates(text, monthFirst: monthFirst, kind: kind, reference: reference)
                if let first = candidates.first {
                    v[name] = first
                    dateCandidates[source.index][Self.dateSlot(name)!] = candidates
                    // A birth date the MRZ holds as `YYMMDD` whose four-digit year the VIZ prints
                    // in another century takes that century (``DocumentDate/century(ofBirth:printedAs:in:reference:)``).
                    if name == .dateOfBirth, let mrzDate = self[.mrz, name],
                       let printed = DocumentDate.century(ofBirth: mrzDate, printedAs: first, in: text, reference: reference) {
                        self[.mrz, name] = printed
                        v[name] = printed
                    }
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
                v[name] = Self.hasRunOfSpaces(text) ? text.split(whereSeparator: \.isWhitespace).joined(separator: " ") : text
            default:
                v[name] = text
            }
        }
        v.store(into: &self)
    }

    /// One source's readings, gathered and then stored in the table in one go.
    struct Writer {
        let source: DocumentSource
        var values = [String?](repeating: nil, count: DocumentFieldName.allCases.count)
        subscript(_ name: DocumentFieldName) -> String? {
            get { values[name.index] }
            set { values[name.index] = newValue }
        }
        /// The values an MRZ holds (the printed one, or the chip's DG1).
        mutating func addMRZ(_ mrz: MRZResult, reference: CalendarDate) {
            let f = mrz.fields
            self[.lastName] = f.primaryIdentifier
            self[.firstName] = f.secondaryIdentifier
            self[.fullName] = f.secondaryIdentifier.isEmpty ? f.primaryIdentifier : f.secondaryIdentifier + " " + f.primaryIdentifier
            self[.documentNumber] = f.documentNumber
            if mrz.format == .td3 { self[.personalIdNumber] = f.optionalData1.map(SourceReadings.withoutFillers) }
            self[.dateOfBirth] = DocumentDate.fromMRZ(f.dateOfBirth, resolved: mrz.dateOfBirth, kind: .birth, reference: reference)
            if let expiry = f.dateOfExpiry {
                self[.dateOfExpiry] = DocumentDate.fromMRZ(expiry, resolved: mrz.dateOfExpiry, kind: .expiry, reference: reference)
            }
            self[.sex] = f.sex
            self[.nationality] = f.nationality
            self[.issuingState] = f.issuingState
        }

        func store(into readings: inout SourceReadings) {
            for (i, value) in values.enumerated() where value != nil { readings.values[i][source] = value }
        }
    }

    /// Two spaces in a row, or a tab or line end: a name whose spacing must be made single.
    static func hasRunOfSpaces(_ text: String) -> Bool {
        var previousSpace = false
        for b in text.utf8 {
            if b == 0x09 || b == 0x0A || b == 0x0D || (b == 0x20 && previousSpace) { return true }
            previousSpace = b == 0x20
        }
        return false
    }

    /// Words a VIZ prints for a document that never expires.
    static func isPermanent(_ text: String) -> Bool {
        ["PERMANENT", "UNLIMITED", "INDEFINITE", "NONE", "NON-EXPIRING", "NO EXPIRY"].contains(text.uppercased().trimmingSpaces)
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
                  dateOfExpiry: state(.dateOfExpiry), lastName: state(.lastName), firstName: state(.firstName), sex: state(.sex))
    }

    /// `notPerformed` with fewer than two non-empty readings; else `match` when every pair agrees.
    func state(_ name: DocumentFieldName) -> DataMatchState {
        var present = values[name.index].all.filter { !$0.value.isEmpty }
        // An MRZ's unspecified sex (held as "") against a printed one (``DocumentMerger/printedSex(ofMRZ:)``).
        if name == .sex, let mrz = values[name.index][.mrz], mrz.isEmpty, !present.isEmpty {
            present.append((source: .mrz, value: DocumentMerger.printedSex(ofMRZ: mrz)))
        }
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
            let slot = Self.dateSlot(name)!
            let ca = dateCandidates[a.0.index][slot].isEmpty ? [a.1] : dateCandidates[a.0.index][slot]
            let cb = dateCandidates[b.0.index][slot].isEmpty ? [b.1] : dateCandidates[b.0.index][slot]
            // A partial MRZ date (`1974-08`) agrees with any date in that month.
            return ca.contains { x in cb.contains { y in x == y || x.hasPrefix(y + "-") || y.hasPrefix(x + "-") } }
        case .lastName, .firstName, .fullName:
            return MRZTransliteration.matches(a.1, b.1, bIsTruncated: mayBeTruncated(b.0))
                || MRZTransliteration.matches(b.1, a.1, bIsTruncated: mayBeTruncated(a.0))
        default:
            return a.1.uppercased() == b.1.uppercased()
        }
    }

    func mayBeTruncated(_ source: DocumentSource) -> Bool {
        source == .mrz ? mrzNameMayBeTruncated : source == .chip && chipNameMayBeTruncated
    }

    /// Document numbers with fillers, spaces and hyphens removed, upper case.
    static func documentNumberKey(_ text: String) -> [UInt8] {
        text.utf8.compactMap { b in
            b == UInt8(ascii: "<") || b == UInt8(ascii: " ") || b == UInt8(ascii: "-") ? nil : (b >= 0x61 && b <= 0x7A ? b - 0x20 : b)
        }
    }
}

extension String {
    func replacingSpaces(with replacement: Character) -> String {
        String(map { $0 == " " ? replacement : $0 })
    }
}
