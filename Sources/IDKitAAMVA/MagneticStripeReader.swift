internal import IDKitCore

/// Reads AAMVA magnetic-stripe tracks (AAMVA DL/ID-2000 Annex F; ISO/IEC 7811), which some
/// jurisdictions (British Columbia) also encode in their PDF417 instead of the Annex D layout.
///
/// Track 1 `%` state(2) city(≤13, `^`) name(`LAST$FIRST$MIDDLE`, `^`) address(`^`) `?`;
/// track 2 `;` IIN(6) number(≤13) `=` expiry YYMM, birth CCYYMMDD, overflow `=` `?`;
/// track 3 `%`/`#` template version, security version, postal code(11), class(2),
/// restrictions(10), endorsements(4), sex(1), height(3), weight(3), hair(3), eyes(3) ... `?`.
/// The tracks become version-01 style elements (`DAJ`, `DAI`, `DAB`, ...) so that the same field
/// rules apply; their offsets point at the bytes they came from.
struct MagneticStripeReader {
    let data: [UInt8]

    func read() -> AAMVAPayload? {
        let percent = UInt8(ascii: "%"), semicolon = UInt8(ascii: ";"), question = UInt8(ascii: "?")
        let caret = UInt8(ascii: "^"), equals = UInt8(ascii: "=")
        guard let t1 = data.firstIndex(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D }),
              data[t1] == percent || data[t1] == semicolon else { return nil }
        var elements: [AAMVAElement] = []
        func add(_ id: String, _ range: Range<Int>) {
            let clipped = max(0, range.lowerBound)..<min(data.count, max(range.lowerBound, range.upperBound))
            let value = String(decoding: data[clipped], as: UTF8.self)
            elements.append(AAMVAElement(id: id, value: value, offset: clipped.lowerBound))
        }
        var iin = ""
        var i = t1
        // Track 1.
        if data[i] == percent, i + 3 <= data.count {
            add("DAJ", (i + 1)..<(i + 3))
            var p = i + 3
            let cityEnd = data[p...].prefix(13).firstIndex(of: caret) ?? min(p + 13, data.count)
            add("DAI", p..<cityEnd)
            p = cityEnd < data.count && data[cityEnd] == caret ? cityEnd + 1 : cityEnd
            let end1 = data[p...].firstIndex(of: question) ?? data.count
            let fields = splitRange(p..<end1, on: caret)
            if fields.count > 0 {
                let nameParts = splitRange(fields[0], on: UInt8(ascii: "$"))
                let cleaned = nameParts.map { r -> Range<Int> in
                    var e = r.upperBound
                    while e > r.lowerBound, data[e - 1] == UInt8(ascii: ",") || data[e - 1] == 0x20 { e -= 1 }
                    return r.lowerBound..<e
                }
                if cleaned.count > 0 { add("DAB", cleaned[0]) }
                if cleaned.count > 1 {
                    // "ROBERTO N": the first word is the first name, the rest the middle.
                    let r = cleaned[1]
                    if let space = data[r].firstIndex(of: 0x20) {
                        add("DAC", r.lowerBound..<space)
                        add("DAD", (space + 1)..<r.upperBound)
                    } else {
                        add("DAC", r)
                        if cleaned.count > 2 { add("DAD", cleaned[2]) }
                    }
                }
            }
            if fields.count > 1 {
                let addressParts = splitRange(fields[1], on: UInt8(ascii: "$"))
                if let first = addressParts.first { add("DAG", first) }
                if addressParts.count > 1 { add("DAH", addressParts[1]) }
            }
            i = min(end1 + 1, data.count)
        }
        // Track 2.
        if let t2 = data[i...].firstIndex(of: semicolon), t2 + 7 <= data.count {
            iin = String(decoding: data[(t2 + 1)..<(t2 + 7)], as: UTF8.self)
            let numberEnd = data[(t2 + 7)...].firstIndex(of: equals) ?? data.count
            add("DAQ", (t2 + 7)..<numberEnd)
            let p = numberEnd + 1
            if p + 12 <= data.count, data[p..<(p + 12)].allSatisfy(Byte.isDigit) {
                add("DBB", (p + 4)..<(p + 12))
                if let expiry = expiryDate(yymm: p, birth: p + 4) {
                    elements.append(AAMVAElement(id: "DBA", value: expiry, offset: p))
                }
            }
            // A track without '=' ends the data: p is then one past the end.
            i = p < data.count ? (data[p...].firstIndex(of: question).map { $0 + 1 } ?? data.count) : data.count
        }
        // Track 3.
        if i < data.count, let t3 = data[i...].firstIndex(where: { $0 == percent || $0 == UInt8(ascii: "#") }) {
            let s = t3 + 1
            let end3 = data[s...].firstIndex(of: question) ?? data.count
            func field(_ id: String, _ from: Int, _ length: Int) {
                if s + from + length <= end3 { add(id, (s + from)..<(s + from + length)) }
            }
            field("DAK", 2, 11); field("DAR", 13, 2); field("DAS", 15, 10); field("DAT", 25, 4)
            // Canadian tracks carry centimeters and kilograms, US tracks feet-inches and pounds.
            let metric = AAMVAJurisdiction.forIIN(iin)?.country == "CAN"
            field("DBC", 29, 1); field(metric ? "DAV" : "DAU", 30, 3); field(metric ? "DAX" : "DAW", 33, 3)
            field("DAZ", 36, 3); field("DAY", 39, 3)
        }
        guard !iin.isEmpty || elements.count >= 3 else { return nil }
        let jurisdiction = AAMVAJurisdiction.forIIN(iin)
        // Tracks use version 01 conventions (CCYYMMDD dates, FII heights); no DL/ID subfile type.
        let table = ElementTable(elements: elements)
        var interpreter = FieldInterpreter(table: table, version: 1, subfileType: nil, iinCountry: jurisdiction?.country)
        interpreter.validate()
        let raw = AAMVAContent.RawSubfile(type: "DL", designatedOffset: nil, designatedLength: nil, offset: t1, table: table)
        return AAMVAPayload(encoding: .magneticStripe, fileType: nil, version: nil, jurisdictionVersion: nil,
                            iin: iin, jurisdiction: jurisdiction, country: interpreter.country, numberOfEntries: nil,
                            warnings: interpreter.warnings,
                            content: AAMVAContent(raw: [raw], primary: 0, version: 1, primaryType: nil, iinCountry: jurisdiction?.country))
    }

    private func splitRange(_ range: Range<Int>, on separator: UInt8) -> [Range<Int>] {
        var parts: [Range<Int>] = []
        var start = range.lowerBound
        for k in range where data[k] == separator {
            parts.append(start..<k)
            start = k + 1
        }
        parts.append(start..<range.upperBound)
        return parts
    }

    /// Track 2 expiry `YYMM` (Annex F): `77` = non-expiring, `88` = the end of the birth month in
    /// year YY+1, `99` = the birthday in year YY; a month equal to the birth month means the
    /// birthday, any other the last day of that month. Written as `CCYYMMDD`.
    private func expiryDate(yymm p: Int, birth b: Int) -> String? {
        func n(_ i: Int, _ c: Int) -> Int { (i..<(i + c)).reduce(0) { $0 * 10 + Int(data[$1] - 0x30) } }
        let yy = n(p, 2), mm = n(p + 2, 2)
        let birthMonth = n(b + 4, 2), birthDay = n(b + 6, 2)
        var year = 2000 + yy, month = mm, day: Int
        switch mm {
        case 77: return nil
        case 88: year += 1; month = birthMonth; day = 0
        case 99: month = birthMonth; day = birthDay
        case birthMonth: day = birthDay
        case 1...12: day = 0
        default: return nil
        }
        if day == 0 {
            guard (1...12).contains(month) else { return nil }
            day = CalendarDate.daysInMonth(year: year, month: month)
        }
        func pad(_ v: Int, _ w: Int) -> String { let s = String(v); return String(repeating: "0", count: max(0, w - s.count)) + s }
        return pad(year, 4) + pad(month, 2) + pad(day, 2)
    }
}
