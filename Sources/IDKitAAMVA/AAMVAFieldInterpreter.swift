/// Turns the elements of the primary subfile into `AAMVAFields`, by version.
///
/// Dates: AAMVA DL/ID-2000 (version 01) writes `CCYYMMDD`; from version 02 on, US cards write
/// `MMDDCCYY` and Canadian cards `CCYYMMDD` (Annex D, D.12.5.1 "Date" data type). The country is
/// `DCG` when present, else the IIN's, else the address jurisdiction's.
struct FieldInterpreter {
    let payload: AAMVAPayload
    var warnings: [AAMVAWarning] = []
    var country: String?
    private var elements: [AAMVAElement] = []

    init(payload: AAMVAPayload) {
        self.payload = payload
        self.elements = payload.primarySubfile?.elements ?? []
    }

    private func raw(_ id: String) -> AAMVAElement? { elements.first { $0.id == id } }

    /// The trimmed value; `nil` when absent, `""` when present and blank.
    private func text(_ id: String) -> String? {
        guard let e = raw(id) else { return nil }
        return trim(e.value)
    }

    mutating func interpret() -> AAMVAFields {
        let version = payload.version ?? 1
        var f = AAMVAFields()
        let subfileType = payload.primarySubfile?.type
        f.documentType = subfileType == "DL" || subfileType == "ID" ? subfileType : nil

        // Country: DCG, IIN, address jurisdiction.
        country = text("DCG").flatMap { $0.isEmpty ? nil : $0 }
            ?? payload.jurisdiction?.country
            ?? text("DAJ").flatMap(AAMVAJurisdiction.country(ofCode:))
        let monthFirst = version >= 2 && country != "CAN"

        // Names.
        if version <= 1 {
            f.lastName = text("DAB")
            f.firstName = text("DAC")
            f.middleName = text("DAD")
            f.suffix = text("DAE")
            f.prefix = text("DAF")
            if let full = text("DAA") {
                f.fullName = full
                let parts = splitName(full)
                if f.lastName == nil { f.lastName = parts.last }
                if f.firstName == nil { f.firstName = parts.first }
                if f.middleName == nil { f.middleName = parts.middle }
                if f.suffix == nil { f.suffix = parts.suffix }
            }
        } else {
            f.lastName = text("DCS").map(stripTrailingCommas)
            f.suffix = text("DCU")
            if version <= 3 || raw("DAC") == nil, let given = text("DCT") {
                let parts = splitGiven(given)
                f.firstName = parts.first
                f.middleName = parts.middle
            }
            if let first = text("DAC") { f.firstName = first }
            if let middle = text("DAD") { f.middleName = middle }
            f.aliasLastName = text("DBN")
            f.aliasFirstName = text("DBG")
            f.aliasSuffix = text("DBS")
            f.lastNameTruncation = text("DDE")
            f.firstNameTruncation = text("DDF")
            f.middleNameTruncation = text("DDG")
        }
        if f.fullName == nil {
            let parts = [f.firstName, f.middleName, f.lastName, f.suffix].compactMap { $0 }.filter { !$0.isEmpty }
            f.fullName = parts.isEmpty ? nil : parts.joined(separator: " ")
        }

        f.documentNumber = text("DAQ")
        f.documentDiscriminator = text("DCF")
        f.inventoryControlNumber = text("DCK")
        f.auditInformation = text("DCJ")
        f.dateOfBirth = date("DBB", monthFirst: monthFirst)
        f.dateOfExpiry = date("DBA", monthFirst: monthFirst)
        f.dateOfIssue = date("DBD", monthFirst: monthFirst)
        f.cardRevisionDate = date("DDB", monthFirst: monthFirst)
        f.hazmatExpiryDate = date("DDC", monthFirst: monthFirst)
        f.under18Until = date("DDH", monthFirst: monthFirst)
        f.under19Until = date("DDI", monthFirst: monthFirst)
        f.under21Until = date("DDJ", monthFirst: monthFirst)

        f.sex = sex()
        (f.heightIn, f.heightCm) = height(version: version)
        (f.weightLb, f.weightKg) = weight()
        f.weightRange = text("DCE")
        f.eyeColor = text("DAY")
        f.eyeColorName = f.eyeColor.flatMap { Self.eyeColors[$0.uppercased()] }
        f.hairColor = text("DAZ")
        f.hairColorName = f.hairColor.flatMap { Self.hairColors[$0.uppercased()] }
        f.race = text("DCL")

        f.street = text("DAG").map(stripTrailingCommas)
        f.street2 = text("DAH")
        f.city = text("DAI")
        f.state = text("DAJ")
        f.postalCode = text("DAK").map(postalCode)
        f.placeOfBirth = text("DCI")

        if version <= 1 {
            f.vehicleClass = text("DAR")
            f.restrictions = text("DAS")
            f.endorsements = text("DAT")
            f.organDonor = text("DBH").flatMap(flag)
        } else {
            f.vehicleClass = text("DCA") ?? text("DAR")
            f.restrictions = text("DCB") ?? text("DAS")
            f.endorsements = text("DCD") ?? text("DAT")
            f.organDonor = text("DDK").flatMap(flag) ?? text("DBH").flatMap(flag)
        }
        f.complianceType = text("DDA")
        f.limitedDuration = text("DDD").flatMap(flag)
        f.veteran = text("DDL").flatMap(flag)
        f.commercial = text("DDM").flatMap(flag)
        f.nonDomiciled = text("DDN").flatMap(flag)
        f.enhanced = text("DDO").flatMap(flag)
        f.permit = text("DDP").flatMap(flag)
        return f
    }

    // MARK: Values

    private func trim(_ s: String) -> String {
        var scalars = Substring(s)
        while let c = scalars.first, c == " " { scalars.removeFirst() }
        while let c = scalars.last, c == " " { scalars.removeLast() }
        return String(scalars)
    }

    private func stripTrailingCommas(_ s: String) -> String {
        var t = Substring(s)
        while let c = t.last, c == "," || c == " " { t.removeLast() }
        return String(t)
    }

    /// Version 01 `DAA`: `LAST,FIRST,MIDDLE,SUFFIX` (commas; some jurisdictions use `$` or spaces
    /// as `FIRST MIDDLE LAST`).
    private func splitName(_ full: String) -> (last: String?, first: String?, middle: String?, suffix: String?) {
        let separators: Set<Character> = full.contains(",") ? [","] : (full.contains("$") ? ["$"] : [])
        if separators.isEmpty {
            let words = full.split(separator: " ").map(String.init)
            guard words.count >= 2 else { return (full, nil, nil, nil) }
            return (words.last, words.first, words.count > 2 ? words[1..<(words.count - 1)].joined(separator: " ") : nil, nil)
        }
        let parts = full.split(omittingEmptySubsequences: false, whereSeparator: { separators.contains($0) })
            .map { trim(String($0)) }
        func at(_ i: Int) -> String? { i < parts.count ? parts[i] : nil }
        return (at(0), at(1), at(2), at(3).flatMap { $0.isEmpty ? nil : $0 })
    }

    /// Versions 02–03 `DCT`: given names, first then middle, separated by a comma or a space.
    private func splitGiven(_ given: String) -> (first: String, middle: String?) {
        let cleaned = stripTrailingCommas(given)
        let separator: Character = cleaned.contains(",") ? "," : " "
        guard let cut = cleaned.firstIndex(of: separator) else { return (cleaned, nil) }
        return (trim(String(cleaned[..<cut])), trim(String(cleaned[cleaned.index(after: cut)...])))
    }

    /// ZIP+4 written as nine digits (`950350000`) keeps its five-digit form plus the extension.
    private func postalCode(_ s: String) -> String {
        let digitsOnly = s.allSatisfy(\.isNumber)
        if digitsOnly, s.count == 9 {
            let zip = String(s.prefix(5)), plus = String(s.suffix(4))
            return plus == "0000" ? zip : zip + "-" + plus
        }
        return s
    }

    private func flag(_ s: String) -> Bool? {
        switch s.uppercased() {
        case "1", "Y", "YES", "T": return true
        case "0", "N", "NO", "F": return false
        case "": return nil
        default: return nil
        }
    }

    private mutating func date(_ id: String, monthFirst: Bool) -> String? {
        guard let element = raw(id) else { return nil }
        let value = trim(element.value)
        if value.isEmpty || value == "00000000" { return "" }
        let bytes = Array(value.utf8)
        guard bytes.count == 8, bytes.allSatisfy(Byte.isDigit) else {
            warnings.append(AAMVAWarning(.invalidValue, "\(id) \"\(value)\" is not an 8-digit date", offset: element.offset))
            return nil
        }
        func n(_ r: Range<Int>) -> Int { r.reduce(0) { $0 * 10 + Int(bytes[$1] - 0x30) } }
        let us = (y: n(4..<8), m: n(0..<2), d: n(2..<4))
        let iso = (y: n(0..<4), m: n(4..<6), d: n(6..<8))
        let preferred = monthFirst ? us : iso
        let other = monthFirst ? iso : us
        if Self.isValid(preferred) { return Self.format(preferred) }
        if Self.isValid(other) {
            warnings.append(AAMVAWarning(.unexpectedDateOrder,
                "\(id) \"\(value)\" is \(monthFirst ? "CCYYMMDD" : "MMDDCCYY"), not the \(monthFirst ? "MMDDCCYY" : "CCYYMMDD") expected for this card",
                offset: element.offset))
            return Self.format(other)
        }
        warnings.append(AAMVAWarning(.invalidValue, "\(id) \"\(value)\" is not a calendar date", offset: element.offset))
        return nil
    }

    static func isValid(_ d: (y: Int, m: Int, d: Int)) -> Bool {
        guard d.y >= 1800, d.y <= 2200, (1...12).contains(d.m), d.d >= 1 else { return false }
        let leap = (d.y % 4 == 0 && d.y % 100 != 0) || d.y % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][d.m - 1]
        return d.d <= days
    }

    static func format(_ d: (y: Int, m: Int, d: Int)) -> String {
        func pad(_ v: Int, _ w: Int) -> String { let s = String(v); return String(repeating: "0", count: max(0, w - s.count)) + s }
        return "\(pad(d.y, 4))-\(pad(d.m, 2))-\(pad(d.d, 2))"
    }

    /// `1` male, `2` female, `9` not specified (ANSI D-20); letters as written.
    private mutating func sex() -> String? {
        guard let element = raw("DBC") else { return nil }
        let v = trim(element.value).uppercased()
        switch v {
        case "1", "M": return "M"
        case "2", "F": return "F"
        case "9", "X", "U": return "X"
        case "": return ""
        default:
            warnings.append(AAMVAWarning(.invalidValue, "DBC \"\(v)\" is not a sex code (1, 2, 9, M, F, X)", offset: element.offset))
            return nil
        }
    }

    /// Height from every form seen on cards: `069 IN`, `175 CM`, version 01 `509` (5 ft 9 in),
    /// `5'-09"`, `5-09`, and `DAV` centimetres.
    private mutating func height(version: Int) -> (Int?, Int?) {
        if let cm = text("DAV").flatMap({ Int($0.filter(\.isNumber)) }), cm > 0 {
            return (Int((Double(cm) / 2.54).rounded()), cm)
        }
        guard let element = raw("DAU") else { return (nil, nil) }
        let v = trim(element.value).uppercased()
        let digits = v.filter(\.isNumber)
        if v.isEmpty { return (nil, nil) }
        if v.hasSuffix("CM"), let cm = Int(digits) { return (Int((Double(cm) / 2.54).rounded()), cm) }
        if v.hasSuffix("IN"), let inches = Int(digits) { return (inches, Int((Double(inches) * 2.54).rounded())) }
        if v.contains("'") || v.contains("-") {
            let parts = v.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            if parts.count == 2, parts[1] < 12 {
                let inches = parts[0] * 12 + parts[1]
                return (inches, Int((Double(inches) * 2.54).rounded()))
            }
        }
        if digits.count == 3, digits == v, let n = Int(digits) {
            let feet = n / 100, rest = n % 100
            if digits.first != "0", (3...8).contains(feet), rest < 12 {
                let inches = feet * 12 + rest
                return (inches, Int((Double(inches) * 2.54).rounded()))
            }
            if n >= 100 { return (Int((Double(n) / 2.54).rounded()), n) }
            return (n, Int((Double(n) * 2.54).rounded()))
        }
        warnings.append(AAMVAWarning(.invalidValue, "DAU \"\(v)\" is not a height", offset: element.offset))
        return (nil, nil)
    }

    private func weight() -> (Int?, Int?) {
        // Some Canadian cards write kilograms into DAW ("50 KG").
        if let v = text("DAW"), v.uppercased().hasSuffix("KG"), let kg = Int(v.filter(\.isNumber)), kg > 0 {
            return (Int((Double(kg) / 0.45359237).rounded()), kg)
        }
        if let lb = text("DAW").flatMap({ Int($0.filter(\.isNumber)) }), lb > 0 {
            return (lb, Int((Double(lb) * 0.45359237).rounded()))
        }
        if let kg = text("DAX").flatMap({ Int($0.filter(\.isNumber)) }), kg > 0 {
            return (Int((Double(kg) / 0.45359237).rounded()), kg)
        }
        return (nil, nil)
    }

    /// ANSI D-20 eye colour codes (Annex D, D.12.5.1).
    static let eyeColors: [String: String] = [
        "BLK": "black", "BLU": "blue", "BRO": "brown", "BRN": "brown", "GRY": "gray", "GRN": "green",
        "HAZ": "hazel", "MAR": "maroon", "PNK": "pink", "DIC": "dichromatic", "UNK": "unknown",
    ]
    /// ANSI D-20 hair colour codes.
    static let hairColors: [String: String] = [
        "BAL": "bald", "BLK": "black", "BLN": "blond", "BRO": "brown", "BRN": "brown", "GRY": "gray",
        "RED": "red/auburn", "SDY": "sandy", "WHI": "white", "UNK": "unknown",
    ]
}
