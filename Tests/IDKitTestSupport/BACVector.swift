import Foundation

/// A BAC vector of `TestVectors/chip/icao-9303-11.json`: the MRZ, the keys derived from it, the
/// challenge and responses and the session keys, as hex. The command line's and the service's
/// tests send the same one.
public struct BACVector: Decodable, Sendable {
    public var mrz: [String]
    public var documentNumber, dateOfBirth, dateOfExpiry, mrzInformation, kSeed, kEnc, kMac: String
    public var rndIC, rndIFD, kIFD, externalAuthenticate, cardResponse, ksEnc, ksMac, ssc: String

    /// ICAO 9303-11 Appendix D's worked example.
    public static let appendixD: BACVector = {
        struct File: Decodable { var bac: [BACVector] }
        let data = try! Data(contentsOf: TestPKI.root.appendingPathComponent("TestVectors/chip/icao-9303-11.json"))
        return try! JSONDecoder().decode(File.self, from: data).bac[0]
    }()
}
