/// The MRZ layouts IDKit reads.
///
/// ICAO Doc 9303 (8th edition) Parts 4–7 define TD1, TD2, TD3 and the two visa forms; the French
/// national identity card issued from 1988 to 2021 uses its own 2×36 layout, which looks like TD2 but
/// places every field differently.
public enum MRZFormat: String, Sendable, Codable, CaseIterable, Hashable, CustomStringConvertible {
    /// ID-1 size cards, 3 lines of 30 characters (ICAO 9303-5).
    case td1 = "TD1"
    /// ID-2 size documents, 2 lines of 36 characters (ICAO 9303-6).
    case td2 = "TD2"
    /// Passports (ID-3 size), 2 lines of 44 characters (ICAO 9303-4).
    case td3 = "TD3"
    /// Full-size visa, 2 lines of 44 characters (ICAO 9303-7 §4).
    case mrvA = "MRVA"
    /// Small visa, 2 lines of 36 characters (ICAO 9303-7 §5).
    case mrvB = "MRVB"
    /// French national ID card 1988–2021, 2 lines of 36 characters starting `IDFRA` (not TD2).
    case franceID1988 = "FRA_ID_1988"

    /// The name used in JSON: `TD1`, `TD2`, `TD3`, `MRVA`, `MRVB`, `FRA_ID_1988`.
    public var description: String { rawValue }

    /// `rawValue` as a literal, for writers that must not allocate.
    public var jsonName: StaticString {
        switch self {
        case .td1: return "TD1"
        case .td2: return "TD2"
        case .td3: return "TD3"
        case .mrvA: return "MRVA"
        case .mrvB: return "MRVB"
        case .franceID1988: return "FRA_ID_1988"
        }
    }

    public var lineCount: Int { self == .td1 ? 3 : 2 }

    /// Whether the first line of a two-line, 36-character MRZ makes it the French national ID of
    /// 1988–2021 rather than a TD2: it begins `IDFRA`. `first` holds at least 5 bytes. The parser's
    /// layout detection and the image reader's decoder both ask this.
    @inline(__always)
    public static func isFrenchID(firstLine first: UnsafePointer<UInt8>) -> Bool {
        first[0] == UInt8(ascii: "I") && first[1] == UInt8(ascii: "D") && first[2] == UInt8(ascii: "F")
            && first[3] == UInt8(ascii: "R") && first[4] == UInt8(ascii: "A")
    }

    public var lineLength: Int {
        switch self {
        case .td1: return 30
        case .td2, .mrvB, .franceID1988: return 36
        case .td3, .mrvA: return 44
        }
    }
}
