import Foundation
import Testing
import IDKitChip
import IDKitMRZ

/// `TestVectors/chip/icao-9303-11.json`: the worked examples of ICAO 9303-11 Appendices D and G.
struct ChipVectors: Decodable, Sendable {
    struct BAC: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var mrz: [String]
        var documentNumber, dateOfBirth, dateOfExpiry, mrzInformation: String
        var kSeed, kEnc, kMac, rndIC, rndIFD, kIFD, externalAuthenticate, cardResponse, kIC, ksEnc, ksMac, ssc: String
        var testDescription: String { name }
    }
    struct Information: Decodable, Sendable, CustomTestStringConvertible {
        var name, documentNumber, dateOfBirth, dateOfExpiry, mrzInformation, kSeed: String
        var testDescription: String { name }
    }
    struct PACE: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var documentNumber, dateOfBirth, dateOfExpiry, can: String?
        var secret, cipher, kPi: String
        var testDescription: String { name }
    }
    struct KDF: Decodable, Sendable, CustomTestStringConvertible {
        var name, secret, cipher, key: String
        var counter: UInt32
        var testDescription: String { name }
    }
    var bac: [BAC]
    var mrzInformation: [Information]
    var pace: [PACE]
    var kdf: [KDF]

    static let file: ChipVectors = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("TestVectors/chip/icao-9303-11.json")
        return try! JSONDecoder().decode(ChipVectors.self, from: Data(contentsOf: url))
    }()
}

func hex(_ text: String) -> [UInt8] { try! Hex.decode(text, name: "vector") }

@Suite struct BACVectorTests {
    @Test(arguments: ChipVectors.file.bac)
    func appendixD(_ v: ChipVectors.BAC) throws {
        let info = try MRZInformation(documentNumber: v.documentNumber, dateOfBirth: v.dateOfBirth, dateOfExpiry: v.dateOfExpiry)
        #expect(info.text == v.mrzInformation)
        let keys = BACKeys(info)
        #expect(Hex.encode(keys.kSeed) == v.kSeed)
        #expect(Hex.encode(keys.kEnc) == v.kEnc)
        #expect(Hex.encode(keys.kMac) == v.kMac)

        let auth = try BACAuthentication(keys: keys, rndIC: hex(v.rndIC), rndIFD: hex(v.rndIFD), kIFD: hex(v.kIFD))
        #expect(Hex.encode(auth.externalAuthenticateData) == v.externalAuthenticate)
        let session = try auth.sessionKeys(cardResponse: hex(v.cardResponse))
        #expect(Hex.encode(session.kIC) == v.kIC)
        #expect(Hex.encode(session.ksEnc) == v.ksEnc)
        #expect(Hex.encode(session.ksMac) == v.ksMac)
        #expect(Hex.encode(session.ssc) == v.ssc)
    }

    @Test(arguments: ChipVectors.file.bac)
    func keysFromTheParsedMRZ(_ v: ChipVectors.BAC) throws {
        let mrz = try MRZParser(referenceDate: CalendarDate(year: 1990, month: 1, day: 1)).parse(lines: v.mrz)
        #expect(mrz.isBACReady)
        let keys = BACKeys(try MRZInformation(mrz: mrz))
        #expect(keys.mrzInformation.text == v.mrzInformation)
        #expect(Hex.encode(keys.kEnc) == v.kEnc)
    }

    @Test(arguments: ChipVectors.file.bac)
    func aDamagedOrForeignAnswerIsRefused(_ v: ChipVectors.BAC) throws {
        let keys = BACKeys(try MRZInformation(documentNumber: v.documentNumber, dateOfBirth: v.dateOfBirth, dateOfExpiry: v.dateOfExpiry))
        let auth = try BACAuthentication(keys: keys, rndIC: hex(v.rndIC), rndIFD: hex(v.rndIFD), kIFD: hex(v.kIFD))
        var flipped = hex(v.cardResponse)
        flipped[3] ^= 0x01
        #expect(throws: ChipError.self) { try auth.sessionKeys(cardResponse: flipped) }
        do {
            _ = try auth.sessionKeys(cardResponse: flipped)
        } catch {
            #expect(error.kind == .macMismatch)
        }
        // The right MAC but another terminal's challenge: the card did not answer us.
        let other = try BACAuthentication(keys: keys, rndIC: hex(v.rndIC), rndIFD: [UInt8](repeating: 7, count: 8), kIFD: hex(v.kIFD))
        do {
            _ = try other.sessionKeys(cardResponse: hex(v.cardResponse))
            Issue.record("accepted an answer to another challenge")
        } catch {
            #expect(error.kind == .challengeMismatch)
        }
        do {
            _ = try auth.sessionKeys(cardResponse: Array(hex(v.cardResponse).prefix(38)))
            Issue.record("accepted a short answer")
        } catch {
            #expect(error.kind == .invalidResponseLength)
            #expect(error.message.contains("found 38"))
        }
    }

    @Test(arguments: ChipVectors.file.mrzInformation)
    func mrzInformation(_ v: ChipVectors.Information) throws {
        let info = try MRZInformation(documentNumber: v.documentNumber, dateOfBirth: v.dateOfBirth, dateOfExpiry: v.dateOfExpiry)
        #expect(info.text == v.mrzInformation)
        #expect(Hex.encode(BACKeys(info).kSeed) == v.kSeed)
    }

    @Test func lowerCaseAndTrailingFillersTypeTheSameKey() throws {
        let a = try MRZInformation(documentNumber: "l898902c", dateOfBirth: "690806", dateOfExpiry: "940623")
        let b = try MRZInformation(documentNumber: "L898902C<<<", dateOfBirth: "690806", dateOfExpiry: "940623")
        #expect(a == b)
    }

    @Test(arguments: [
        ("", "690806", "940623", "document number: empty (BAC needs the document number)"),
        ("L8989-2C", "690806", "940623", "document number, character 6: '-' is not A–Z, 0–9 or <"),
        ("L898902C", "69086", "940623", "date of birth: expected 6 characters YYMMDD, found 5 (\"69086\")"),
        ("L898902C", "690806", "94O623", "date of expiry, character 3: 'O' is not a digit"),
        ("ABCDEFGHIJKLMNOPQRSTUVW", "690806", "940623", "document number: 23 characters, at most 22"),
    ])
    func badInputSaysWhatAndWhere(number: String, birth: String, expiry: String, message: String) {
        do {
            _ = try MRZInformation(documentNumber: number, dateOfBirth: birth, dateOfExpiry: expiry)
            Issue.record("accepted \(number) \(birth) \(expiry)")
        } catch {
            #expect(error.kind == .invalidInput)
            #expect(error.message == message)
        }
    }

    @Test func anMRZWithABadCheckDigitIsNotBACReady() throws {
        let mrz = try MRZParser().parse(lines: ["I<UTOL898902C<4<<<<<<<<<<<<<<<", "6908061F9406236UTO<<<<<<<<<<<2",
                                                 "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"])
        #expect(!mrz.isBACReady)
    }
}

@Suite struct PACEVectorTests {
    @Test(arguments: ChipVectors.file.pace)
    func appendixG(_ v: ChipVectors.PACE) throws {
        let password: PACEPassword
        if let can = v.can {
            password = try PACEPassword.can(validating: can)
        } else {
            password = .mrz(try MRZInformation(documentNumber: v.documentNumber!, dateOfBirth: v.dateOfBirth!, dateOfExpiry: v.dateOfExpiry!))
        }
        #expect(Hex.encode(password.secret) == v.secret)
        let cipher = try #require(ChipCipher(rawValue: v.cipher))
        #expect(Hex.encode(password.key(for: cipher)) == v.kPi)
    }

    @Test(arguments: ChipVectors.file.kdf)
    func keyDerivation(_ v: ChipVectors.KDF) throws {
        let cipher = try #require(ChipCipher(rawValue: v.cipher))
        #expect(Hex.encode(ChipKeyDerivation.derive(hex(v.secret), counter: v.counter, for: cipher)) == v.key)
    }

    @Test func keyLengthsFollowTheCipher() throws {
        let password = PACEPassword.can("123456")
        for cipher in ChipCipher.allCases {
            #expect(password.key(for: cipher).count == cipher.keyLength)
        }
        // AES-192 is the first 24 bytes of the SHA-256 derivation that AES-256 uses whole.
        #expect(Array(password.key(for: .aes256).prefix(24)) == password.key(for: .aes192))
        // 3DES keys carry odd DES parity in every byte.
        #expect(password.key(for: .tdes).allSatisfy { $0.nonzeroBitCount % 2 == 1 })
    }

    @Test func aCANMustBeDigits() {
        #expect(throws: ChipError.self) { try PACEPassword.can(validating: "12a456") }
        #expect(throws: ChipError.self) { try PACEPassword.can(validating: "") }
    }

    @Test func hexErrorsNameTheArgument() {
        do {
            _ = try Hex.decode("4608F9198870221", name: "--rnd-ic", count: 8)
            Issue.record("accepted odd hex")
        } catch {
            #expect(error.message == "--rnd-ic: odd number of hex digits (15)")
        }
        do {
            _ = try Hex.decode("4608F9198870XX12", name: "--rnd-ic", count: 8)
            Issue.record("accepted non-hex")
        } catch {
            #expect(error.message == "--rnd-ic, hex digit 13: 'X' is not 0–9 or A–F")
        }
    }
}

@Suite struct LongNumberTests {
    /// ICAO 9303-5's long-number TD1 example: the key is made from the whole number D23145890734
    /// and its check digit, which stand split between the number field and the optional data.
    @Test func longTD1NumberGivesTheWholeNumberKey() throws {
        let mrz = try MRZParser(referenceDate: CalendarDate(year: 1990, month: 1, day: 1)).parse(lines: [
            "I<UTOD23145890<7349<<<<<<<<<<<", "3407127M9507122UTO<<<<<<<<<<<2", "STEVENSON<<PETER<JOHN<<<<<<<<<"])
        let expected = try #require(ChipVectors.file.mrzInformation.first { $0.documentNumber == "D23145890734" })
        let info = try MRZInformation(mrz: mrz)
        #expect(info.text == expected.mrzInformation)
        #expect(Hex.encode(BACKeys(info).kSeed) == expected.kSeed)
        #expect(mrz.isBACReady)
    }
}
