/// The data elements of the AAMVA DL/ID standard, by version.
///
/// Sources: AAMVA DL/ID-2000 (version 01) Annex D table D.3; AAMVA DL/ID Card Design Standard
/// 2005–2020 (versions 02–10) Annex D tables D.3/D.4; 2025 edition (version 11) adds DDM–DDP.
/// Some identifiers changed meaning after version 01 (`DBG`, `DBN`, `DBS`, ...): `name(of:version:)`
/// answers for the version the card declares.
public enum AAMVAElementCatalog {
    /// What an element means in a given AAMVA version, or `nil` for an identifier the standard
    /// does not define in that version (jurisdiction elements `Z??` are never in the catalog).
    public static func name(of id: String, version: Int) -> String? {
        if version <= 1, let old = version01[id] { return old }
        if version <= 1 { return nil }
        if let entry = current[id], version >= entry.since { return entry.name }
        return nil
    }

    /// Mandatory elements of a subfile (Annex D, "Minimum mandatory data elements").
    /// Vehicle class, restrictions and endorsements (`DCA`, `DCB`, `DCD`) are mandatory on
    /// driver licenses only.
    public static func mandatory(version: Int, subfile: String) -> [String] {
        var ids: [String]
        switch version {
        case ..<1:
            return []
        case 1:
            // DL/ID-2000: the name may be DAA (full) or DAB/DAC (parts); checked separately.
            return ["DAQ", "DBA", "DBB", "DBC", "DBD", "DAG", "DAI", "DAJ", "DAK"]
        case 2...3:
            ids = ["DBA", "DCS", "DCT", "DBD", "DBB", "DBC", "DAY", "DAU", "DAG", "DAI", "DAJ", "DAK",
                   "DAQ", "DCF", "DCG"]
        default:
            ids = ["DBA", "DCS", "DAC", "DAD", "DBD", "DBB", "DBC", "DAY", "DAU", "DAG", "DAI", "DAJ",
                   "DAK", "DAQ", "DCF", "DCG", "DDE", "DDF", "DDG"]
        }
        if subfile == "DL" { ids.insert(contentsOf: ["DCA", "DCB", "DCD"], at: 0) }
        return ids
    }

    /// `mandatory(version:subfile:)` as packed identifiers (`ElementTable.code`), computed once
    /// per version for driver licenses and for other subfiles.
    static func mandatoryCodes(version: Int, isDL: Bool) -> [UInt32] {
        let v = max(0, min(version, 11))
        return isDL ? mandatoryDL[v] : mandatoryOther[v]
    }
    private static let mandatoryDL: [[UInt32]] = (0...11).map { v in
        mandatory(version: v, subfile: "DL").map(ElementTable.code)
    }
    private static let mandatoryOther: [[UInt32]] = (0...11).map { v in
        mandatory(version: v, subfile: "ID").map(ElementTable.code)
    }

    /// Every identifier any version defines, packed as three ASCII bytes (see `ElementTable.code`).
    static let allCodes: Set<UInt32> = Set(version01.keys.map(ElementTable.code)).union(current.keys.map(ElementTable.code))
    private static let version01Codes: Set<UInt32> = Set(version01.keys.map(ElementTable.code))
    private static let currentCodes: [UInt32: Int] = Dictionary(uniqueKeysWithValues: current.map { (ElementTable.code($0.key), $0.value.since) })

    /// Whether `code` is an element of `version` (the packed form of `name(of:version:) != nil`).
    static func isDefined(_ code: UInt32, version: Int) -> Bool {
        if version <= 1 { return version01Codes.contains(code) }
        if let since = currentCodes[code] { return version >= since }
        return false
    }

    /// Versions 02 and later (2003 onwards), with the version that introduced each element.
    private static let current: [String: (name: String, since: Int)] = [
        "DCA": ("Jurisdiction-specific vehicle class", 2),
        "DCB": ("Jurisdiction-specific restriction codes", 2),
        "DCD": ("Jurisdiction-specific endorsement codes", 2),
        "DBA": ("Document expiration date", 2),
        "DCS": ("Customer family name", 2),
        "DCT": ("Customer given names", 2),
        "DAC": ("Customer first name", 4),
        "DAD": ("Customer middle name(s)", 4),
        "DBD": ("Document issue date", 2),
        "DBB": ("Date of birth", 2),
        "DBC": ("Physical description – sex", 2),
        "DAY": ("Physical description – eye color", 2),
        "DAU": ("Physical description – height", 2),
        "DAG": ("Address – street 1", 2),
        "DAH": ("Address – street 2", 2),
        "DAI": ("Address – city", 2),
        "DAJ": ("Address – jurisdiction code", 2),
        "DAK": ("Address – postal code", 2),
        "DAQ": ("Customer ID number", 2),
        "DCF": ("Document discriminator", 2),
        "DCG": ("Country identification", 2),
        "DDE": ("Family name truncation", 4),
        "DDF": ("First name truncation", 4),
        "DDG": ("Middle name truncation", 4),
        "DAZ": ("Hair color", 2),
        "DCI": ("Place of birth", 2),
        "DCJ": ("Audit information", 2),
        "DCK": ("Inventory control number", 2),
        "DBN": ("Alias / AKA family name", 2),
        "DBG": ("Alias / AKA given name", 2),
        "DBS": ("Alias / AKA suffix name", 2),
        "DCU": ("Name suffix", 2),
        "DCE": ("Physical description – weight range", 2),
        "DCL": ("Race / ethnicity", 2),
        "DCM": ("Standard vehicle classification", 2),
        "DCN": ("Standard endorsement code", 2),
        "DCO": ("Standard restriction code", 2),
        "DCP": ("Jurisdiction-specific vehicle classification description", 2),
        "DCQ": ("Jurisdiction-specific endorsement code description", 2),
        "DCR": ("Jurisdiction-specific restriction code description", 2),
        "DDA": ("Compliance type", 4),
        "DDB": ("Card revision date", 4),
        "DDC": ("HAZMAT endorsement expiration date", 4),
        "DDD": ("Limited duration document indicator", 4),
        "DAW": ("Weight (pounds)", 2),
        "DAX": ("Weight (kilograms)", 2),
        "DDH": ("Under 18 until", 4),
        "DDI": ("Under 19 until", 4),
        "DDJ": ("Under 21 until", 4),
        "DDK": ("Organ donor indicator", 4),
        "DDL": ("Veteran indicator", 4),
        "DDM": ("CDL indicator", 11),
        "DDN": ("Non-domiciled indicator", 11),
        "DDO": ("Enhanced credential indicator", 11),
        "DDP": ("Permit indicator", 11),
        // Version 02/03 elements that version 04 renamed or dropped.
        "PAA": ("Permit classification code", 2),
        "PAB": ("Permit expiration date", 2),
        "PAC": ("Permit identifier", 2),
        "PAD": ("Permit issue date", 2),
        "PAE": ("Permit restriction code", 2),
        "PAF": ("Permit endorsement code", 2),
        "DAA": ("Full name", 2),
        "DAB": ("Family name", 2),
        "DAE": ("Name suffix", 2),
        "DAF": ("Name prefix", 2),
        "DAL": ("Residence street address 1", 2),
        "DAM": ("Residence street address 2", 2),
        "DAN": ("Residence city", 2),
        "DAO": ("Residence jurisdiction code", 2),
        "DAP": ("Residence postal code", 2),
        "DAR": ("License classification code", 2),
        "DAS": ("License restriction code", 2),
        "DAT": ("License endorsements code", 2),
        "DAV": ("Height (centimeters)", 2),
        "DBE": ("Issue timestamp", 2),
        "DBF": ("Number of duplicates", 2),
        "DBH": ("Organ donor", 2),
        "DBI": ("Non-resident indicator", 2),
        "DBJ": ("Unique customer identifier", 2),
        "DBK": ("Social security number", 2),
        "DBL": ("AKA date of birth", 2),
        "DBM": ("AKA social security number", 2),
        "DBO": ("AKA family name", 2),
        "DBP": ("AKA given name", 2),
        "DBQ": ("AKA middle name", 2),
        "DBR": ("AKA suffix", 2),
        "DCH": ("Federal commercial vehicle codes", 2),
    ]

    /// Version 01 (AAMVA DL/ID-2000), where several identifiers meant something else.
    private static let version01: [String: String] = [
        "DAA": "Driver license name (full name)",
        "DAB": "Driver last name", "DAC": "Driver first name", "DAD": "Driver middle name or initial",
        "DAE": "Driver name suffix", "DAF": "Driver name prefix",
        "DAG": "Driver mailing street address 1", "DAH": "Driver mailing street address 2",
        "DAI": "Driver mailing city", "DAJ": "Driver mailing jurisdiction code",
        "DAK": "Driver mailing postal code", "DAL": "Driver residence street address 1",
        "DAM": "Driver residence street address 2", "DAN": "Driver residence city",
        "DAO": "Driver residence jurisdiction code", "DAP": "Driver residence postal code",
        "DAQ": "Driver license/ID number", "DAR": "Driver license classification code",
        "DAS": "Driver license restriction code", "DAT": "Driver license endorsements code",
        "DAU": "Height (FT/IN)", "DAV": "Height (CM)", "DAW": "Weight (LBS)", "DAX": "Weight (KG)",
        "DAY": "Eye color", "DAZ": "Hair color", "DBA": "License expiration date",
        "DBB": "Date of birth", "DBC": "Sex", "DBD": "License or ID document issue date",
        "DBE": "Issue timestamp", "DBF": "Number of duplicates", "DBG": "Medical indicator/codes",
        "DBH": "Organ donor", "DBI": "Non-resident indicator", "DBJ": "Unique customer identifier",
        "DBK": "Social security number", "DBL": "Driver AKA date of birth",
        "DBM": "Driver AKA social security number", "DBN": "Driver AKA name",
        "DBO": "Driver AKA last name", "DBP": "Driver AKA first name", "DBQ": "Driver AKA middle name",
        "DBR": "Driver AKA suffix", "DBS": "Driver AKA prefix",
        "DCF": "Document discriminator", "DCG": "Country identification", "DCH": "Federal commercial vehicle codes",
        "PAA": "Permit classification code", "PAB": "Permit expiration date", "PAC": "Permit identifier",
        "PAD": "Permit issue date", "PAE": "Permit restriction code", "PAF": "Permit endorsement code",
    ]
}
