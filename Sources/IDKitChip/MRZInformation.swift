public import IDKitMRZ

/// `MRZ_information` of ICAO 9303-11 §9.7.2 (and Appendix D.2): the document number, the date of
/// birth and the date of expiry, each followed by its check digit — the secret that BAC keys and
/// PACE's MRZ password are made from.
///
/// The document number is padded with fillers to nine characters (`L898902C<`). A longer number
/// (TD1 and TD2 continue it in the optional data, 9303-5 §4.2.4) is used whole, with the check
/// digit over the whole number, as Part 11 prescribes for such documents.
public struct MRZInformation: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// The document number as it stands in `MRZ_information` (padded to nine, or the whole long number).
    public let documentNumber: String
    /// `YYMMDD`; `<` marks an unknown part.
    public let dateOfBirth: String
    /// `YYMMDD`.
    public let dateOfExpiry: String
    /// Number ‖ CD ‖ birth ‖ CD ‖ expiry ‖ CD, e.g. `L898902C<369080619406236`.
    public let text: String

    /// The longest document number accepted: a TD1 number of 9 characters continued in the 15
    /// characters of optional data, less its check digit and filler.
    public static let maximumDocumentNumberLength = 22

    /// From the three values as a person types them (upper or lower case; trailing fillers optional).
    public init(documentNumber: String, dateOfBirth: String, dateOfExpiry: String) throws(ChipError) {
        var number = Array(documentNumber.uppercased().utf8)
        while number.last == UInt8(ascii: "<") { number.removeLast() }
        guard !number.isEmpty else {
            throw ChipError(.invalidInput, "document number: empty (BAC needs the document number)")
        }
        guard number.count <= Self.maximumDocumentNumberLength else {
            throw ChipError(.invalidInput, "document number: \(number.count) characters, at most \(Self.maximumDocumentNumberLength)")
        }
        if let bad = number.firstIndex(where: { !MRZCheckDigit.isMRZCharacter($0) }) {
            throw ChipError(.invalidInput, "document number, character \(bad + 1): \(Self.show(number[bad])) is not A–Z, 0–9 or <")
        }
        while number.count < 9 { number.append(UInt8(ascii: "<")) }
        let birth = try Self.date(dateOfBirth, name: "date of birth", unknownPartsAllowed: true)
        let expiry = try Self.date(dateOfExpiry, name: "date of expiry", unknownPartsAllowed: false)
        func withCheckDigit(_ bytes: [UInt8]) -> [UInt8] { bytes + [0x30 + MRZCheckDigit.compute(bytes)!] }
        self.documentNumber = String(decoding: number, as: UTF8.self)
        self.dateOfBirth = String(decoding: birth, as: UTF8.self)
        self.dateOfExpiry = String(decoding: expiry, as: UTF8.self)
        self.text = String(decoding: withCheckDigit(number) + withCheckDigit(birth) + withCheckDigit(expiry), as: UTF8.self)
    }

    /// From a parsed MRZ (any layout with a date of expiry). Check digits are recomputed from the
    /// values, so an MRZ with a misread check digit still gives the key its data imply; whether the
    /// MRZ is fit for a chip read is ``IDKitMRZ/MRZResult/isBACReady``.
    public init(mrz: MRZResult) throws(ChipError) {
        let fields = mrz.fields
        guard let expiry = fields.dateOfExpiry else {
            throw ChipError(.invalidInput, "the \(mrz.format) MRZ has no date of expiry, which BAC needs")
        }
        try self.init(documentNumber: fields.documentNumber, dateOfBirth: fields.dateOfBirth, dateOfExpiry: expiry)
    }

    public var description: String { text }

    private static func date(_ text: String, name: String, unknownPartsAllowed: Bool) throws(ChipError) -> [UInt8] {
        let bytes = Array(text.utf8)
        guard bytes.count == 6 else {
            throw ChipError(.invalidInput, "\(name): expected 6 characters YYMMDD, found \(bytes.count) (\"\(text)\")")
        }
        for (i, b) in bytes.enumerated() where !(b >= 0x30 && b <= 0x39) && !(unknownPartsAllowed && b == UInt8(ascii: "<")) {
            throw ChipError(.invalidInput, "\(name), character \(i + 1): \(show(b)) is not a digit\(unknownPartsAllowed ? " or <" : "")")
        }
        return bytes
    }

    private static func show(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? "'\(Character(UnicodeScalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }
}

extension MRZResult {
    /// True when the MRZ gives everything a chip read needs: a document number, a date of birth and
    /// a date of expiry, each with a valid check digit — what an app waits for before it offers to
    /// read the chip (the reference SDKs' "MRZ required" capture gate).
    public var isBACReady: Bool {
        let f = fields
        return !f.documentNumber.isEmpty && f.dateOfExpiry != nil
            && checkDigits.documentNumber == .valid && checkDigits.dateOfBirth == .valid
            && checkDigits.dateOfExpiry == .valid
    }
}
