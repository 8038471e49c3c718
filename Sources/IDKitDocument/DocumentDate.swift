import IDKitMRZ

/// Dates from the three kinds of source, as ISO 8601 text that compares like with like.
enum DocumentDate {
    /// The ISO readings `text` may stand for, most likely first; `[]` when it is not a date.
    /// Accepted: `YYYY-MM-DD`, `YYYYMMDD`, `DD.MM.YYYY`, `DD/MM/YYYY` and `MM/DD/YYYY` (both
    /// readings when the day is 12 or less; month first preferred on US documents), `DD-MM-YYYY`,
    /// `DD MMM YYYY` with English or French month abbreviations (`12 AUG 1974`, `12 AOUT/AUG 74`).
    static func candidates(_ text: String, monthFirst: Bool, kind: Kind, reference: CalendarDate) -> [String] {
        let t = text.uppercased().trimmingSpaces
        var results: [CalendarDate] = []
        let digitsOnly = t.allSatisfy(\.isNumber)
        if digitsOnly, t.count == 8, let y = Int(t.prefix(4)), let m = Int(t.dropFirst(4).prefix(2)), let d = Int(t.suffix(2)), y >= 1800 {
            results.append(CalendarDate(year: y, month: m, day: d))
        } else if t.count == 10, t.dropFirst(4).first == "-", let y = Int(t.prefix(4)),
                  let m = Int(t.dropFirst(5).prefix(2)), let d = Int(t.suffix(2)) {
            results.append(CalendarDate(year: y, month: m, day: d))
        } else {
            // `12 AUG/AOUT 74` keeps its bilingual month whole; `12/08/1974` splits on the slashes.
            var parts = t.split { $0 == "." || $0 == "-" || $0 == " " || $0 == "," }.map(String.init)
            if parts.count != 3 { parts = t.split { $0 == "." || $0 == "/" || $0 == "-" || $0 == " " || $0 == "," }.map(String.init) }
            if parts.count == 3, let a = Int(parts[0]), let c = Int(parts[2]) {
                let year = fullYear(c, digits: parts[2].count, kind: kind, reference: reference)
                if let b = Int(parts[1]) {
                    let dayFirst = CalendarDate(year: year, month: b, day: a)
                    let monthFirstDate = CalendarDate(year: year, month: a, day: b)
                    results = monthFirst ? [monthFirstDate, dayFirst] : [dayFirst, monthFirstDate]
                } else if let m = month(parts[1]) {
                    results.append(CalendarDate(year: year, month: m, day: a))
                }
            }
        }
        var seen = Set<String>()
        return results.filter { CalendarDate.isValid(year: $0.year, month: $0.month, day: $0.day) }
            .map(\.description).filter { seen.insert($0).inserted }
    }

    enum Kind { case birth, expiry, issue }

    /// A two-digit year by the MRZ core's rules (birth in the past; expiry within 50 years).
    static func fullYear(_ value: Int, digits: Int, kind: Kind, reference: CalendarDate) -> Int {
        guard digits <= 2 else { return value }
        switch kind {
        case .birth, .issue: return MRZCenturyRule.birthYear(yy: value, month: nil, day: nil, reference: reference)
        case .expiry: return MRZCenturyRule.expiryYear(yy: value, reference: reference)
        }
    }

    /// `AUG`, `AOUT/AUG`, `AOÛT`, `AUGUST`: the month number of the first recognised abbreviation.
    static func month(_ word: String) -> Int? {
        let names = [["JAN", "JANV"], ["FEB", "FEV", "FÉV"], ["MAR", "MARS"], ["APR", "AVR"], ["MAY", "MAI"],
                     ["JUN", "JUIN"], ["JUL", "JUIL"], ["AUG", "AOU", "AOÛ"], ["SEP"], ["OCT"], ["NOV"], ["DEC", "DÉC"]]
        for piece in word.split(separator: "/") {
            for (i, forms) in names.enumerated() where forms.contains(where: { piece.hasPrefix($0) }) { return i + 1 }
        }
        return nil
    }

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
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s.removeFirst() }
        while s.last?.isWhitespace == true { s.removeLast() }
        return String(s)
    }
}
