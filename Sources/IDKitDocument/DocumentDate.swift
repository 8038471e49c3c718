import IDKitMRZ

/// Dates from the three kinds of source, as ISO 8601 text that compares like with like: the
/// merge's data match and the visual zone's reader parse printed dates here.
public enum DocumentDate {
    /// The ISO readings `text` may stand for, most likely first; `[]` when it is not a date.
    /// Accepted: `YYYY-MM-DD`, `YYYYMMDD`, `DD.MM.YYYY`, `DD/MM/YYYY` and `MM/DD/YYYY` (both
    /// readings when the day is 12 or less; month first preferred on US documents), `DD-MM-YYYY`,
    /// `DD MMM YYYY` with a month's name in an issuer's language (``monthNames``: `12 AUG 1974`,
    /// `12 AOUT/AUG 74`, `14 OKT/OCT 1971`).
    public static func candidates(_ text: String, monthFirst: Bool, kind: Kind, reference: CalendarDate) -> [String] {
        // Tokens: runs of digits, runs of letters (upper-cased; non-ASCII bytes count as letters).
        var numbers: [(value: Int, digits: Int)] = []
        var words: [[UInt8]] = []
        var order: [Bool] = []          // true: a number token
        var current: [UInt8] = []
        var inNumber = false
        func flush() {
            guard !current.isEmpty else { return }
            if inNumber {
                var v = 0
                for d in current.prefix(9) { v = v * 10 + Int(d - 0x30) }
                numbers.append((v, current.count))
            } else {
                words.append(current)
            }
            order.append(inNumber)
            current.removeAll(keepingCapacity: true)
        }
        for b in text.utf8 {
            let isDigit = b >= 0x30 && b <= 0x39
            let isLetter = (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b >= 0x80
            if isDigit || isLetter {
                if !current.isEmpty && isDigit != inNumber { flush() }
                inNumber = isDigit
                current.append(b >= 0x61 && b <= 0x7A ? b - 0x20 : b)
            } else {
                flush()
            }
        }
        flush()

        var results: [CalendarDate] = []
        if numbers.count == 1, words.isEmpty, numbers[0].digits == 8, numbers[0].value / 10_000 >= 1800 {
            let v = numbers[0].value
            results.append(CalendarDate(year: v / 10_000, month: v / 100 % 100, day: v % 100))
        } else if numbers.count == 3, words.isEmpty {
            let (a, b, c) = (numbers[0], numbers[1], numbers[2])
            if a.digits == 4 {
                results.append(CalendarDate(year: a.value, month: b.value, day: c.value))
            } else {
                let year = fullYear(c.value, digits: c.digits, kind: kind, reference: reference)
                let dayFirst = CalendarDate(year: year, month: b.value, day: a.value)
                let monthFirstDate = CalendarDate(year: year, month: a.value, day: b.value)
                results = monthFirst ? [monthFirstDate, dayFirst] : [dayFirst, monthFirstDate]
            }
        } else if numbers.count == 2, !words.isEmpty, order.first == true, order.last == true,
                  let m = words.lazy.compactMap(month).first {
            let year = fullYear(numbers[1].value, digits: numbers[1].digits, kind: kind, reference: reference)
            results.append(CalendarDate(year: year, month: m, day: numbers[0].value))
        }
        var out: [String] = []
        for date in results where CalendarDate.isValid(year: date.year, month: date.month, day: date.day) {
            let iso = date.description
            if !out.contains(iso) { out.append(iso) }
        }
        return out
    }

    /// `printed` where it is the MRZ's birth date `mrz` in another century and `text` prints its
    /// year in four digits; `nil` otherwise. The MRZ holds a date as `YYMMDD` (ICAO 9303-3 §4.3),
    /// and a birth's century is a rule's guess (the latest not in the future); a visual zone that
    /// prints `01.01.1911` where the MRZ holds `110101` says which century it is: the one before
    /// or after the rule's. A printed two-digit year says nothing of it, so it gives none, and a
    /// birth after `reference` is none. Only a birth: the expiry's rule (within 50 years of
    /// `reference`) leaves no other century a document can hold, and an expiry in 19xx is a
    /// misread, not a century.
    public static func century(ofBirth mrz: String, printedAs printed: String, in text: String, reference: CalendarDate) -> String? {
        let m = Array(mrz.utf8), p = Array(printed.utf8)
        guard m.count == 10, p.count == 10, m[4...] == p[4...], let my = Int(mrz.prefix(4)),
              let py = Int(printed.prefix(4)), abs(my - py) == 100, (1900...2099).contains(py), (1900...2099).contains(my),
              printed <= reference.description else { return nil }
        // Only 19 for 20 or 20 for 19, two digits apart: `3016` is `2016` misread, and so may
        // `1899` be `1999` (one digit).
        let year = Array(p[0..<4])
        var run: [UInt8] = []
        for b in text.utf8 + [0] {
            if b >= 0x30 && b <= 0x39 { run.append(b); continue }
            // The year alone (`01.01.1911`), or leading eight digits (`19110101`).
            if run == year || (run.count == 8 && run.starts(with: year)) { return printed }
            run.removeAll(keepingCapacity: true)
        }
        return nil
    }

    /// Which date it is: a two-digit year is resolved by the MRZ core's rule for that kind.
    public enum Kind: Sendable { case birth, expiry, issue }

    /// A two-digit year by the MRZ core's rules (birth in the past; expiry within 50 years).
    static func fullYear(_ value: Int, digits: Int, kind: Kind, reference: CalendarDate) -> Int {
        guard digits <= 2 else { return value }
        switch kind {
        case .birth, .issue: return MRZCenturyRule.birthYear(yy: value, month: nil, day: nil, reference: reference)
        case .expiry: return MRZCenturyRule.expiryYear(yy: value, reference: reference)
        }
    }

    /// `AUG`, `AUGUST`, `AOUT`, `AOÛT`, `OKT`, `MEI` (upper case): the month number, or `nil`.
    static func month(_ word: [UInt8]) -> Int? {
        for (i, forms) in monthNames.enumerated() where forms.contains(where: { word.starts(with: $0) }) { return i + 1 }
        return nil
    }

    /// The months' names as data pages print them, by their first letters, in the languages of
    /// the Latin-script issuers whose Tesseract data IDKit installs: English, French, German,
    /// Dutch, Spanish, Italian, Portuguese, Swedish, Polish, Czech, Hungarian and Romanian
    /// (`12 AUG/AOUT 74`, `14 OKT/OCT 1971`, `03 MEI/MAY 2006`, `21 GIU/JUN 1980`). No form
    /// stands for two months in any of them; a form with a diacritic is listed without it too, as
    /// OCR often drops it.
    static let monthNames: [[[UInt8]]] = [
        ["JAN", "ENE", "GEN", "STY", "LED", "IAN"],
        ["FEB", "FEV", "FÉV", "LUT", "ÚNO", "UNO"],
        ["MAR", "MÄR", "MRZ", "MRT", "MAA", "BŘE", "BRE", "MÁR"],
        ["APR", "AVR", "ABR", "KWI", "DUB", "ÁPR"],
        ["MAY", "MAI", "MEI", "MAG", "MAJ", "KVĚ", "KVE", "MÁJ"],
        ["JUN", "JUIN", "GIU", "CZE", "ČVN", "CVN", "JÚN", "IUN"],
        ["JUL", "JUIL", "LUG", "LIP", "ČVC", "CVC", "JÚL", "IUL"],
        ["AUG", "AOU", "AOÛ", "AGO", "SIE", "SRP"],
        ["SEP", "SET", "WRZ", "ZÁŘ", "ZAR", "SZEP"],
        ["OCT", "OKT", "OTT", "OUT", "PAŹ", "PAZ", "ŘÍJ", "RIJ"],
        ["NOV", "LIS", "NOI"],
        ["DEC", "DÉC", "DEZ", "DIC", "GRU", "PRO"],
    ].map { $0.map { Array($0.utf8) } }

    /// The MRZ's `YYMMDD`, with fillers for unknown parts of a birth date (9303-3 §4.3): a full
    /// date, or `YYYY-MM` / `YYYY` when the day / month and day are unknown; `nil` when unknown.
    static func fromMRZ(_ raw: String, resolved: CalendarDate?, kind: Kind, reference: CalendarDate) -> String? {
        if let resolved { return resolved.description }
        let b = Array(raw.utf8)
        guard b.count == 6, let yy = Int(String(decoding: b[0..<2], as: UTF8.self)) else { return nil }
        let year = fullYear(yy, digits: 2, kind: kind, reference: reference)
        if let mm = Int(String(decoding: b[2..<4], as: UTF8.self)), (1...12).contains(mm) {
            let y = String(year), m = mm < 10 ? "0\(mm)" : "\(mm)"
            return "\(y)-\(m)"
        }
        return String(year)
    }
}

extension String {
    /// Without leading and trailing ASCII spaces, tabs and line ends (the string itself when it has none).
    var trimmingSpaces: String {
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        let bytes = utf8
        guard let first = bytes.first, let last = bytes.last, isSpace(first) || isSpace(last) else { return self }
        let trimmed = bytes.drop(while: isSpace).reversed().drop(while: isSpace).reversed()
        return String(decoding: Array(trimmed), as: UTF8.self)
    }
}
