internal import IDKitCore

/// Turns the elements of the primary subfile into `AAMVAFields`, by version.
///
/// Dates: AAMVA DL/ID-2000 (version 01) writes `CCYYMMDD`; from version 02 on, US cards write
/// `MMDDCCYY` and Canadian cards `CCYYMMDD` (Annex D, D.12.5.1 "Date" data type). The country is
/// `DCG` when present, else the IIN's, else the address jurisdiction's.
struct FieldInterpreter {
    let table: ElementTable
    let version: Int
    let subfileType: String?
    /// The country of the jurisdiction the IIN is assigned to.
    let iinCountry: String?
    var warnings: [AAMVAWarning] = []
    var country: String?

    init(table: ElementTable, version: Int, subfileType: String?, iinCountry: String?) {
        self.table = table
        self.version = version
        self.subfileType = subfileType
        self.iinCountry = iinCountry
    }

    @inline(__always) private func has(_ id: StaticString) -> Bool { table.index(ElementTable.code(id)) != nil }

    /// The element's index and its value's bytes without the space padding; `nil` when absent.
    @inline(__always) private func trimmedValue(_ id: StaticString) -> (index: Int, range: Range<Int>)? {
        guard let i = table.index(ElementTable.code(id)) else { return nil }
        var r = table.value(i)
        while r.lowerBound < r.upperBound, table.bytes[r.lowerBound] == Byte.space { r = (r.lowerBound + 1)..<r.upperBound }
        while r.lowerBound < r.upperBound, table.bytes[r.upperBound - 1] == Byte.space { r = r.lowerBound..<(r.upperBound - 1) }
        return (i, r)
    }

    @inline(__always) private func trimmed(_ id: StaticString) -> Range<Int>? { trimmedValue(id)?.range }

    private func string(_ r: Range<Int>) -> String { table.latin1(r) }

    /// The trimmed value; `nil` when absent, `""` when present and blank.
    private func text(_ id: StaticString) -> String? {
        // Not `trimmed(id).map(string)`: a method passed as a closure copies the interpreter
        // (its table, warnings and strings) on every call.
        guard let r = trimmed(id) else { return nil }
        return string(r)
    }

    private func offset(_ id: StaticString) -> Int? {
        table.index(ElementTable.code(id)).map { table.offset($0) }
    }

    private static let dateElements: [StaticString] = ["DBB", "DBA", "DBD", "DDB", "DDC", "DDH", "DDI", "DDJ"]

    /// The checks that raise warnings (dates, sex, height) and the country, without making the
    /// fields: what parsing needs; `interpret()` makes the fields when they are read.
    mutating func validate() {
        country = text("DCG").flatMap { $0.isEmpty ? nil : $0 }
            ?? iinCountry
            ?? text("DAJ").flatMap(AAMVAJurisdiction.country(ofCode:))
        let monthFirst = version >= 2 && country != "CAN"
        for id in Self.dateElements where has(id) {
            _ = date(id, monthFirst: monthFirst, format: false)
        }
        _ = sex()
        _ = height(version: version)
    }

    mutating func interpret() -> AAMVAFields {
        var f = AAMVAFields()
        f.documentType = subfileType == "DL" || subfileType == "ID" ? subfileType : nil

        // Country: DCG, IIN, address jurisdiction.
        country = text("DCG").flatMap { $0.isEmpty ? nil : $0 }
            ?? iinCountry
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
                let parts = Self.splitName(full)
                if f.lastName == nil { f.lastName = parts.last }
                if f.firstName == nil { f.firstName = parts.first }
                if f.middleName == nil { f.middleName = parts.middle }
                if f.suffix == nil { f.suffix = parts.suffix }
            }
        } else {
            f.lastName = text("DCS").map(Self.stripTrailingCommas)
            f.suffix = text("DCU")
            if version <= 3 || !has("DAC"), let given = text("DCT") {
                let parts = Self.splitGiven(given)
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
        f.eyeColorName = f.eyeColor.flatMap { Self.eyeColors[$0] }
        f.hairColor = text("DAZ")
        f.hairColorName = f.hairColor.flatMap { Self.hairColors[$0] }
        f.race = text("DCL")

        f.street = text("DAG").map(Self.stripTrailingCommas)
        f.street2 = text("DAH")
        f.city = text("DAI")
        f.state = text("DAJ")
        f.postalCode = text("DAK").map(Self.postalCode)
        f.placeOfBirth = text("DCI")

        if version <= 1 {
            f.vehicleClass = text("DAR")
            f.restrictions = text("DAS")
            f.endorsements = text("DAT")
            f.organDonor = flag("DBH")
        } else {
            f.vehicleClass = text("DCA") ?? text("DAR")
            f.restrictions = text("DCB") ?? text("DAS")
            f.endorsements = text("DCD") ?? text("DAT")
            f.organDonor = flag("DDK") ?? flag("DBH")
        }
        f.complianceType = text("DDA")
        f.limitedDuration = flag("DDD")
        f.veteran = flag("DDL")
        f.commercial = flag("DDM")
        f.nonDomiciled = flag("DDN")
        f.enhanced = flag("DDO")
        f.permit = flag("DDP")
        return f
    }

    // MARK: Values

    private static func trim(_ s: String) -> String {
        var scalars = Substring(s)
        while let c = scalars.first, c == " " { scalars.removeFirst() }
        while let c = scalars.last, c == " " { scalars.removeLast() }
        return String(scalars)
    }

    private static func stripTrailingCommas(_ s: String) -> String {
        var t = Substring(s)
        while let c = t.last, c == "," || c == " " { t.removeLast() }
        return String(t)
    }

    /// Version 01 `DAA`: `LAST,FIRST,MIDDLE,SUFFIX` (commas; some jurisdictions use `$` or spaces
    /// as `FIRST MIDDLE LAST`).
    private static func splitName(_ full: String) -> (last: String?, first: String?, middle: String?, suffix: String?) {
        let separators: Set<Character> = full.contains(",") ? [","] : (full.contains("$") ? ["$"] : [])
        if separators.isEmpty {
            let words = full.split(separator: " ").map(String.init)
            guard words.count >= 2 else { return (full, nil, nil, nil) }
            return (words.last, words.first, words.count > 2 ? words[1..<(words.count - 1)].joined(separator: " ") : nil, nil)
        }
        let parts = full.split(omittingEmptySubsequences: false, whereSeparator: { separators.contains($0) })
            .map { Self.trim(String($0)) }
        func at(_ i: Int) -> String? { i < parts.count ? parts[i] : nil }
        return (at(0), at(1), at(2), at(3).flatMap { $0.isEmpty ? nil : $0 })
    }

    /// Versions 02–03 `DCT`: given names, first then middle, separated by a comma or a space.
    private static func splitGiven(_ given: String) -> (first: String, middle: String?) {
        let cleaned = Self.stripTrailingCommas(given)
        let separator: Character = cleaned.contains(",") ? "," : " "
        guard let cut = cleaned.firstIndex(of: separator) else { return (cleaned, nil) }
        return (Self.trim(String(cleaned[..<cut])), Self.trim(String(cleaned[cleaned.index(after: cut)...])))
    }

    /// ZIP+4 written as nine digits (`950350000`) keeps its five-digit form plus the extension.
    private static func postalCode(_ s: String) -> String {
        let digitsOnly = s.utf8.allSatisfy(Byte.isDigit)
        if digitsOnly, s.utf8.count == 9 {
            let zip = String(s.prefix(5)), plus = String(s.suffix(4))
            return plus == "0000" ? zip : zip + "-" + plus
        }
        return s
    }

    /// `1`/`Y` true, `0`/`N` false (Annex D indicator elements); blank or other: `nil`.
    private func flag(_ id: StaticString) -> Bool? {
        guard let r = trimmed(id), r.count >= 1 else { return nil }
        switch table.bytes[r.lowerBound] {
        case UInt8(ascii: "1"), UInt8(ascii: "Y"), UInt8(ascii: "y"), UInt8(ascii: "T"): return true
        case UInt8(ascii: "0"), UInt8(ascii: "N"), UInt8(ascii: "n"), UInt8(ascii: "F"): return false
        default: return nil
        }
    }

    private mutating func date(_ id: StaticString, monthFirst: Bool, format wanted: Bool = true) -> String? {
        guard let r = trimmed(id) else { return nil }
        if r.isEmpty { return "" }
        // The eight digits as one decimal number (no date has another length).
        var n = r.count == 8 ? 0 : -1
        if n == 0 {
            for k in r {
                let digit = table.bytes[k] &- 0x30
                guard digit < 10 else { n = -1; break }
                n = n * 10 + Int(digit)
            }
        }
        guard n >= 0 else {
            warnings.append(AAMVAWarning(.invalidValue, "\(id) \"\(string(r))\" is not an 8-digit date", offset: offset(id)))
            return nil
        }
        if n == 0 { return "" }                                 // 00000000: no date
        let us = (y: n % 10_000, m: n / 1_000_000, d: n / 10_000 % 100)
        let iso = (y: n / 10_000, m: n / 100 % 100, d: n % 100)
        let preferred = monthFirst ? us : iso
        let other = monthFirst ? iso : us
        if Self.isValid(preferred) { return wanted ? Self.format(preferred) : "" }
        if Self.isValid(other) {
            warnings.append(AAMVAWarning(.unexpectedDateOrder,
                "\(id) \"\(string(r))\" is \(monthFirst ? "CCYYMMDD" : "MMDDCCYY"), not the \(monthFirst ? "MMDDCCYY" : "CCYYMMDD") expected for this card",
                offset: offset(id)))
            return Self.format(other)
        }
        warnings.append(AAMVAWarning(.invalidValue, "\(id) \"\(string(r))\" is not a calendar date", offset: offset(id)))
        return nil
    }

    static func isValid(_ d: (y: Int, m: Int, d: Int)) -> Bool {
        d.y >= 1800 && d.y <= 2200 && CalendarDate.isValid(year: d.y, month: d.m, day: d.d)
    }

    /// `YYYY-MM-DD` (years 1800–2200, checked by `isValid`).
    static func format(_ d: (y: Int, m: Int, d: Int)) -> String {
        let digits: [UInt8] = [
            UInt8(48 + d.y / 1000), UInt8(48 + d.y / 100 % 10), UInt8(48 + d.y / 10 % 10), UInt8(48 + d.y % 10), 0x2D,
            UInt8(48 + d.m / 10), UInt8(48 + d.m % 10), 0x2D, UInt8(48 + d.d / 10), UInt8(48 + d.d % 10),
        ]
        return String(decoding: digits, as: UTF8.self)
    }

    /// `1` male, `2` female, `9` not specified (ANSI D-20); letters as written.
    private mutating func sex() -> String? {
        guard let r = trimmed("DBC") else { return nil }
        if r.isEmpty { return "" }
        if r.count == 1 {
            switch table.bytes[r.lowerBound] {
            case UInt8(ascii: "1"), UInt8(ascii: "M"), UInt8(ascii: "m"): return "M"
            case UInt8(ascii: "2"), UInt8(ascii: "F"), UInt8(ascii: "f"): return "F"
            case UInt8(ascii: "9"), UInt8(ascii: "X"), UInt8(ascii: "x"), UInt8(ascii: "U"), UInt8(ascii: "u"): return "X"
            default: break
            }
        }
        warnings.append(AAMVAWarning(.invalidValue, "DBC \"\(string(r))\" is not a sex code (1, 2, 9, M, F, X)", offset: offset("DBC")))
        return nil
    }

    /// A measure as written on a card, read from the bytes without allocating: its digits as one
    /// number, the numbers between non-digits (`5'-09"` → 5, 9), and its last two letters
    /// upper-cased as the unit (`069 in` → `IN`).
    private struct Measure {
        var number: Int?
        var digitCount = 0
        var onlyDigits = true
        var unit: UInt16 = 0
        var groupCount = 0
        var groups = (0, 0)

        static func unit(_ a: Character, _ b: Character) -> UInt16 {
            UInt16(a.asciiValue!) << 8 | UInt16(b.asciiValue!)
        }
        static let inches = unit("I", "N"), centimeters = unit("C", "M"), kilograms = unit("K", "G")
    }

    private func measure(_ r: Range<Int>) -> Measure {
        var m = Measure()
        var number = 0, current = -1
        func endGroup() {
            if current >= 0 {
                if m.groupCount == 0 { m.groups.0 = current } else if m.groupCount == 1 { m.groups.1 = current }
                m.groupCount += 1
                current = -1
            }
        }
        for k in r {
            let c = table.bytes[k]
            if Byte.isDigit(c) {
                if m.digitCount < 9 { number = number * 10 + Int(c - 0x30) }
                m.digitCount += 1
                // Capped like `number`: a long run of digits must not overflow (fuzzing found it).
                if current < 100_000_000 { current = (current < 0 ? 0 : current) * 10 + Int(c - 0x30) }
            } else {
                m.onlyDigits = false
                endGroup()
                let upper = c >= 0x61 && c <= 0x7A ? c - 0x20 : c
                if Byte.isUpper(upper) { m.unit = m.unit << 8 | UInt16(upper) }
            }
        }
        endGroup()
        m.number = m.digitCount > 0 ? number : nil
        return m
    }

    /// Height from every form seen on cards: `069 IN`, `175 CM`, version 01 `509` (5 ft 9 in),
    /// `5'-09"`, `5-09`, and `DAV` centimeters.
    private mutating func height(version: Int) -> (Int?, Int?) {
        func fromInches(_ i: Int) -> (Int?, Int?) { (i, Int((Double(i) * 2.54).rounded())) }
        func fromCm(_ c: Int) -> (Int?, Int?) { (Int((Double(c) / 2.54).rounded()), c) }
        if let r = trimmed("DAV"), let cm = measure(r).number, cm > 0 { return fromCm(cm) }
        guard let r = trimmed("DAU"), !r.isEmpty else { return (nil, nil) }
        let m = measure(r)
        if m.unit == Measure.centimeters, let cm = m.number { return fromCm(cm) }
        if m.unit == Measure.inches, let inches = m.number { return fromInches(inches) }
        if !m.onlyDigits, m.groupCount == 2, m.groups.1 < 12 {   // 5'-09", 5-09
            return fromInches(m.groups.0 * 12 + m.groups.1)
        }
        if m.onlyDigits, m.digitCount == 3, let n = m.number {
            let feet = n / 100, rest = n % 100
            if table.bytes[r.lowerBound] != 0x30, (3...8).contains(feet), rest < 12 { return fromInches(feet * 12 + rest) }
            return n >= 100 ? fromCm(n) : fromInches(n)
        }
        warnings.append(AAMVAWarning(.invalidValue, "DAU \"\(string(r))\" is not a height", offset: offset("DAU")))
        return (nil, nil)
    }

    private func weight() -> (Int?, Int?) {
        func fromPounds(_ lb: Int) -> (Int?, Int?) { (lb, Int((Double(lb) * 0.45359237).rounded())) }
        func fromKg(_ kg: Int) -> (Int?, Int?) { (Int((Double(kg) / 0.45359237).rounded()), kg) }
        if let r = trimmed("DAW") {
            let m = measure(r)
            // Some Canadian cards write kilograms into DAW ("50 KG").
            if let n = m.number, n > 0 { return m.unit == Measure.kilograms ? fromKg(n) : fromPounds(n) }
        }
        if let r = trimmed("DAX"), let kg = measure(r).number, kg > 0 { return fromKg(kg) }
        return (nil, nil)
    }

    /// ANSI D-20 eye color codes (Annex D, D.12.5.1).
    static let eyeColors: [String: String] = [
        "BLK": "black", "BLU": "blue", "BRO": "brown", "BRN": "brown", "GRY": "gray", "GRN": "green",
        "HAZ": "hazel", "MAR": "maroon", "PNK": "pink", "DIC": "dichromatic", "UNK": "unknown",
    ]
    /// ANSI D-20 hair color codes.
    static let hairColors: [String: String] = [
        "BAL": "bald", "BLK": "black", "BLN": "blond", "BRO": "brown", "BRN": "brown", "GRY": "gray",
        "RED": "red/auburn", "SDY": "sandy", "WHI": "white", "UNK": "unknown",
    ]
}
