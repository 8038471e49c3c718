public import IDKitCore
public import IDKitMRZ

/// The files a phone read from a chip, told apart by their first tag (ICAO 9303-10 §4.6, table
/// 34): EF.SOD `77`, EF.COM `60`, the data groups `61` (DG1) … `70` (DG16); and of the master
/// file, EF.CardAccess (a SET, `31`) and EF.CardSecurity (a ContentInfo SEQUENCE, `30`). File
/// names are not used: every app names them its own way.
public struct ChipFiles: Sendable {
    public private(set) var sod: [UInt8]?
    public private(set) var com: [UInt8]?
    public private(set) var dataGroups: [Int: [UInt8]] = [:]
    public private(set) var cardAccess: [UInt8]?
    public private(set) var cardSecurity: [UInt8]?

    public init() {}

    public var isEmpty: Bool { sod == nil && com == nil && dataGroups.isEmpty && cardAccess == nil && cardSecurity == nil }

    /// Every file, in a fixed order (EF.SOD, EF.COM, the data groups by number, EF.CardAccess,
    /// EF.CardSecurity): what ``add(_:name:)`` makes the same set of again.
    public var all: [[UInt8]] {
        [sod, com].compactMap { $0 } + dataGroups.keys.sorted().map { dataGroups[$0]! } + [cardAccess, cardSecurity].compactMap { $0 }
    }

    /// Whether a file's first byte is one of the tags above.
    public static func isChipFile(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first else { return false }
        return [0x77, 0x60, 0x30, 0x31].contains(first) || LDSFile.dataGroup(of: bytes) != nil
    }

    /// Adds one file; `name` says which in an error. A second EF.SOD or a second file of one data
    /// group is an error, as is a file that starts with no LDS tag.
    public mutating func add(_ bytes: [UInt8], name: String) throws(ChipError) {
        switch bytes.first {
        case 0x77:
            guard sod == nil else { throw ChipError(.duplicateFile, "\(name): a second EF.SOD") }
            sod = bytes
        case 0x60:
            guard com == nil else { throw ChipError(.duplicateFile, "\(name): a second EF.COM") }
            com = bytes
        case 0x31:
            guard cardAccess == nil else { throw ChipError(.duplicateFile, "\(name): a second EF.CardAccess") }
            cardAccess = bytes
        case 0x30:
            guard cardSecurity == nil else { throw ChipError(.duplicateFile, "\(name): a second EF.CardSecurity") }
            cardSecurity = bytes
        default:
            guard let number = LDSFile.dataGroup(of: bytes) else {
                let first = bytes.first.map { BERTLV.hex(UInt32($0)) } ?? "nothing (the file is empty)"
                throw ChipError(.invalidFile, "\(name): not an LDS file (it starts with \(first), not 77 for EF.SOD, 60 for EF.COM, 61–70 for a data group, 31 for EF.CardAccess or 30 for EF.CardSecurity)")
            }
            guard dataGroups[number] == nil else { throw ChipError(.duplicateFile, "\(name): a second EF.DG\(number)") }
            dataGroups[number] = bytes
        }
    }
}

/// What a document result takes from a chip read: the outcome of passive authentication and the
/// data groups that hold document data — DG1 (the MRZ), DG2 (faces), DG11 (additional personal
/// details) and DG12 (additional document details), ICAO 9303-10 §4.7. A data group that cannot
/// be read is left out with a problem saying why; its hash is checked all the same.
public struct ChipDocument: Sendable {
    public let passiveAuthentication: PassiveAuthentication
    public let dataGroup1: DataGroup1?
    /// EF.DG11.
    public let personalDetails: AdditionalDetails?
    /// EF.DG12.
    public let documentDetails: AdditionalDetails?
    public let faces: [DataGroup2.Face]
    /// The data groups given, in order.
    public let dataGroupNumbers: [Int]
    /// Data groups given that could not be read (`"DG11: …"`).
    public let problems: [String]

    /// Verifies `files` (which must hold EF.SOD) against `cscas` at `referenceDate` and reads
    /// their data groups.
    public init(_ files: ChipFiles, cscas: CSCAStore?, referenceDate: CalendarDate) throws(ChipError) {
        guard let sod = files.sod else {
            throw ChipError(.invalidFile, "no EF.SOD among the chip files (its first byte is 77): without it nothing the chip says can be authenticated")
        }
        let groups = files.dataGroups
        passiveAuthentication = PassiveAuthentication(sod: sod, dataGroups: groups, cscas: cscas, referenceDate: referenceDate.description)
        dataGroupNumbers = groups.keys.sorted()
        var problems: [String] = []
        func read<T>(_ number: Int, _ make: ([UInt8]) throws(LDSError) -> T) -> T? {
            guard let bytes = groups[number] else { return nil }
            do { return try make(bytes) } catch {
                problems.append("DG\(number): \(error.description)")
                return nil
            }
        }
        dataGroup1 = read(1) { b throws(LDSError) in try DataGroup1(b, referenceDate: referenceDate) }
        faces = read(2) { b throws(LDSError) in try DataGroup2(b) }?.faces ?? []
        personalDetails = read(11) { b throws(LDSError) in try AdditionalDetails(b, group: 11) }
        documentDetails = read(12) { b throws(LDSError) in try AdditionalDetails(b, group: 12) }
        self.problems = problems
    }

    /// Passive authentication passed: the issuer signed what the chip holds, and the signer
    /// chains to a trusted CSCA.
    public var isAuthenticated: Bool { passiveAuthentication.result == .passed }
}

extension AdditionalDetails {
    /// The value of a named element (`"fullName"`, `"dateOfIssue"`), if present.
    public subscript(_ name: String) -> String? { fields.first { $0.name == name }?.value }
}
