/// An issuing jurisdiction, identified by the Issuer Identification Number (IIN) in the header.
///
/// AAMVA DL/ID Card Design Standard (2020), Annex D, D.12.3 header field "Issuer Identification
/// Number": the six-digit number AAMVA assigns to each jurisdiction (ISO/IEC 7812 numbering).
public struct AAMVAJurisdiction: Sendable, Equatable, Codable, Hashable {
    /// The six-digit IIN, e.g. `"636014"`.
    public let iin: String
    /// The postal abbreviation, e.g. `"CA"`.
    public let code: String
    public let name: String
    /// `"USA"`, `"CAN"` or `"MEX"` (ISO 3166-1 alpha-3).
    public let country: String

    /// The jurisdiction for an IIN, or `nil` for an IIN that AAMVA has not assigned to one.
    public static func forIIN(_ iin: String) -> AAMVAJurisdiction? {
        guard iin.utf8.count == 6, let number = Int(iin) else { return nil }
        return forIIN(number: number)
    }

    /// The jurisdiction for an IIN given as a number (the parser reads the six digits as one):
    /// an array lookup, without hashing a String.
    static func forIIN(number: Int) -> AAMVAJurisdiction? {
        switch number {
        case 636_000...636_062: return byNumber[number - 636_000]
        case 604_426...604_434: return byNumber[63 + number - 604_426]
        default: return nil
        }
    }

    /// The US IINs 636000–636062, then the Canadian 604426–604434 (every IIN in `table`).
    private static let byNumber: [AAMVAJurisdiction?] =
        (636_000...636_062).map { table[String($0)] } + (604_426...604_434).map { table[String($0)] }

    /// All jurisdictions that IDKit knows, by IIN.
    public static var all: [AAMVAJurisdiction] { table.values.sorted { $0.iin < $1.iin } }

    private static let table: [String: AAMVAJurisdiction] = {
        let rows: [(String, String, String, String)] = [
            ("636000", "VA", "Virginia", "USA"), ("636001", "NY", "New York", "USA"),
            ("636002", "MA", "Massachusetts", "USA"), ("636003", "MD", "Maryland", "USA"),
            ("636004", "NC", "North Carolina", "USA"), ("636005", "SC", "South Carolina", "USA"),
            ("636006", "CT", "Connecticut", "USA"), ("636007", "LA", "Louisiana", "USA"),
            ("636008", "MT", "Montana", "USA"), ("636009", "NM", "New Mexico", "USA"),
            ("636010", "FL", "Florida", "USA"), ("636011", "DE", "Delaware", "USA"),
            ("636012", "ON", "Ontario", "CAN"), ("636013", "NS", "Nova Scotia", "CAN"),
            ("636014", "CA", "California", "USA"), ("636015", "TX", "Texas", "USA"),
            ("636016", "NL", "Newfoundland and Labrador", "CAN"), ("636017", "NB", "New Brunswick", "CAN"),
            ("636018", "IA", "Iowa", "USA"), ("636019", "GU", "Guam", "USA"),
            ("636020", "CO", "Colorado", "USA"), ("636021", "AR", "Arkansas", "USA"),
            ("636022", "KS", "Kansas", "USA"), ("636023", "OH", "Ohio", "USA"),
            ("636024", "VT", "Vermont", "USA"), ("636025", "PA", "Pennsylvania", "USA"),
            ("636026", "AZ", "Arizona", "USA"), ("636028", "BC", "British Columbia", "CAN"),
            ("636029", "OR", "Oregon", "USA"), ("636030", "MO", "Missouri", "USA"),
            ("636031", "WI", "Wisconsin", "USA"), ("636032", "MI", "Michigan", "USA"),
            ("636033", "AL", "Alabama", "USA"), ("636034", "ND", "North Dakota", "USA"),
            ("636035", "IL", "Illinois", "USA"), ("636036", "NJ", "New Jersey", "USA"),
            ("636037", "IN", "Indiana", "USA"), ("636038", "MN", "Minnesota", "USA"),
            ("636039", "NH", "New Hampshire", "USA"), ("636040", "UT", "Utah", "USA"),
            ("636041", "ME", "Maine", "USA"), ("636042", "SD", "South Dakota", "USA"),
            ("636043", "DC", "District of Columbia", "USA"), ("636044", "SK", "Saskatchewan", "CAN"),
            ("636045", "WA", "Washington", "USA"), ("636046", "KY", "Kentucky", "USA"),
            ("636047", "HI", "Hawaii", "USA"), ("636048", "MB", "Manitoba", "CAN"),
            ("636049", "NV", "Nevada", "USA"), ("636050", "ID", "Idaho", "USA"),
            ("636051", "MS", "Mississippi", "USA"), ("636052", "RI", "Rhode Island", "USA"),
            ("636053", "TN", "Tennessee", "USA"), ("636054", "NE", "Nebraska", "USA"),
            ("636055", "GA", "Georgia", "USA"), ("636056", "CU", "Coahuila", "MEX"),
            ("636057", "HL", "Hidalgo", "MEX"), ("636058", "OK", "Oklahoma", "USA"),
            ("636059", "AK", "Alaska", "USA"), ("636060", "WY", "Wyoming", "USA"),
            ("636061", "WV", "West Virginia", "USA"), ("636062", "VI", "U.S. Virgin Islands", "USA"),
            ("604426", "PE", "Prince Edward Island", "CAN"), ("604427", "AS", "American Samoa", "USA"),
            ("604428", "QC", "Quebec", "CAN"), ("604429", "YT", "Yukon", "CAN"),
            ("604430", "MP", "Northern Mariana Islands", "USA"), ("604431", "PR", "Puerto Rico", "USA"),
            ("604432", "AB", "Alberta", "CAN"), ("604433", "NU", "Nunavut", "CAN"),
            ("604434", "NT", "Northwest Territories", "CAN"),
        ]
        var table: [String: AAMVAJurisdiction] = [:]
        for (iin, code, name, country) in rows {
            table[iin] = AAMVAJurisdiction(iin: iin, code: code, name: name, country: country)
        }
        return table
    }()

    /// The country of a jurisdiction code (the `DAJ` address jurisdiction), for payloads whose IIN
    /// is unknown (test cards such as Alberta's 990876).
    static func country(ofCode code: String) -> String? {
        table.values.first { $0.code == code }?.country
    }
}
