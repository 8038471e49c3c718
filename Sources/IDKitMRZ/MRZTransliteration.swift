import Foundation

/// Names compared as the MRZ writes them: ICAO 9303-3 §6 ("Transliterations recommended for use
/// by States") maps each national character to the MRZ's `A–Z`. Where the standard gives two
/// forms (`Ä` → `AE` or `A`, `Ü` → `UE` or `U`, `Å` → `AA` or `A`, `Ñ` → `N` or `NXX`), a name has
/// several MRZ forms, and two readings match when any of their forms agree.
public enum MRZTransliteration {
    /// Every MRZ form of `name` (upper case, words separated by one space; at most 64 forms).
    /// `"Müller"` → `["MUELLER", "MULLER"]`; `"DE<BRUIJN"` → `["DE BRUIJN"]`.
    public static func mrzForms(of name: String) -> [String] {
        if let ascii = asciiForm(of: name) { return [ascii] }
        var forms: [String] = [""]
        var pendingSpace = false
        for character in name {
            let options = alternatives(character)
            if options == nil {
                // A separator: space, '<', hyphen, comma, full stop. Apostrophes vanish (9303-3 §4.6).
                if character != "'" && character != "’" { pendingSpace = !forms[0].isEmpty }
                continue
            }
            guard let options, !options.isEmpty else { continue }
            let prefix = pendingSpace ? " " : ""
            pendingSpace = false
            var next: [String] = []
            for form in forms {
                for option in options where next.count < 64 { next.append(form + prefix + option) }
            }
            forms = next
        }
        return forms
    }

    /// The one form of an ASCII name, byte by byte (the common case: no table to consult).
    static func asciiForm(of name: String) -> String? {
        var out = [UInt8]()
        out.reserveCapacity(name.utf8.count)
        var pendingSpace = false
        for b in name.utf8 {
            guard b < 0x80 else { return nil }
            switch b {
            case 0x61...0x7A, 0x41...0x5A, 0x30...0x39:
                if pendingSpace { out.append(0x20) }
                pendingSpace = false
                out.append(b >= 0x61 ? b - 0x20 : b)
            case UInt8(ascii: "'"):
                continue
            default:
                pendingSpace = !out.isEmpty
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// True when some MRZ form of `a` equals one of `b`. With `bIsTruncated` (an MRZ name that
    /// filled its field to the last position, so it may have been cut, 9303-3 §4.6), a form of `a`
    /// that begins with a form of `b` also matches.
    public static func matches(_ a: String, _ b: String, bIsTruncated: Bool = false) -> Bool {
        if let fa = asciiForm(of: a), let fb = asciiForm(of: b) {
            return fa == fb || (bIsTruncated && !fb.isEmpty && fa.hasPrefix(fb))
        }
        let formsB = mrzForms(of: b)
        let setB = Set(formsB)
        return mrzForms(of: a).contains { form in
            setB.contains(form) || (bIsTruncated && formsB.contains { !$0.isEmpty && form.hasPrefix($0) })
        }
    }

    /// The MRZ forms of one character, the recommended one first; `nil` for a separator (space,
    /// `<`, hyphen, punctuation); `[]` for a character with no MRZ form (the Cyrillic soft sign).
    public static func alternatives(_ c: Character) -> [String]? {
        if let a = c.asciiValue {
            switch a {
            case 0x41...0x5A, 0x30...0x39: return [String(c)]
            case 0x61...0x7A: return [String(UnicodeScalar(a - 0x20))]
            default: return nil
            }
        }
        let upper = c.uppercased()
        if let special = special[upper] { return special }
        if let cyrillic = cyrillic[upper] { return [cyrillic] }
        guard let scalar = upper.unicodeScalars.first else { return nil }
        if upper.count == 1, ("A"..."Z").contains(upper) || ("0"..."9").contains(upper) { return [upper] }
        if upper == "<" { return nil }
        // Other Latin letters with diacritics: the base letter (É → E, Č → C, Ş → S, Ő → O).
        if scalar.properties.isAlphabetic {
            let base = upper.decomposedStringWithCanonicalMapping.unicodeScalars
                .filter { !$0.properties.isGraphemeExtend }.map(String.init).joined()
            if base.count == 1, ("A"..."Z").contains(base) { return [base] }
            return []
        }
        return nil
    }

    /// 9303-3 §6 Table A entries that are not just "drop the accent".
    static let special: [String: [String]] = [
        "Ä": ["AE", "A"], "Ö": ["OE", "O"], "Ü": ["UE", "U"], "Å": ["AA", "A"], "Æ": ["AE"], "Ø": ["OE"],
        "Œ": ["OE"], "SS": ["SS"], "ẞ": ["SS"], "Þ": ["TH"], "Ĳ": ["IJ"], "Ð": ["D"], "Đ": ["D"], "Ł": ["L"],
        "Ħ": ["H"], "Ŧ": ["T"], "Ŋ": ["N"], "Ñ": ["N", "NXX"], "İ": ["I"],
    ]

    /// 9303-3 §6 Table B: Cyrillic.
    static let cyrillic: [String: String] = [
        "А": "A", "Б": "B", "В": "V", "Г": "G", "Ґ": "G", "Д": "D", "Ђ": "D", "Ѓ": "G", "Е": "E", "Ё": "E",
        "Є": "IE", "Ж": "ZH", "З": "Z", "Ѕ": "DZ", "И": "I", "І": "I", "Ї": "I", "Й": "I", "Ј": "J", "К": "K",
        "Л": "L", "Љ": "LJ", "М": "M", "Н": "N", "Њ": "NJ", "О": "O", "П": "P", "Р": "R", "С": "S", "Т": "T",
        "Ћ": "C", "Ќ": "K", "У": "U", "Ў": "U", "Ф": "F", "Х": "KH", "Ц": "TS", "Ч": "CH", "Џ": "DZ",
        "Ш": "SH", "Щ": "SHCH", "Ъ": "IE", "Ы": "Y", "Ь": "", "Э": "E", "Ю": "IU", "Я": "IA",
    ]
}
