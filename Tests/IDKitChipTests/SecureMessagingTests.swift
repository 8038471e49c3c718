import Foundation
import IDKitCore
import Testing
@testable import IDKitChip

/// Secure messaging (ICAO 9303-11 §9.8) against the worked example of Appendix D.4 (SELECT EF.COM,
/// READ BINARY), transcribed in ../shared/testdata/emrtd; and AES against RFC 4493's CMAC vectors.
@Suite struct SecureMessagingTests {
    static func hex(_ s: String) -> [UInt8] { try! Hex.decode(s, name: "vector") }
    static let example = EMRTDSamples.directory.appendingPathComponent("icao9303-worked-examples/p11-D_secure-messaging.json")

    @Test(.enabled(if: EMRTDSamples.available, "needs ../shared/testdata/emrtd (ICAO 9303-11 D.4 as JSON); absent here"))
    func appendixD4ByteForByte() throws {
        let v = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.example)) as? [String: Any])
        let steps = try #require(v["steps"] as? [[String: String]])
        var sm = try SecureMessaging(cipher: .tdes, ksEnc: Self.hex(v["ks_enc"] as! String), ksMac: Self.hex(v["ks_mac"] as! String),
                                     ssc: Self.hex(v["ssc_initial"] as! String))
        // SELECT EF.COM: 00 A4 02 0C 02 01 1E
        #expect(try sm.wrap(Self.hex("00A4020C02011E")) == Self.hex(steps[0]["protected_command_apdu"]!))
        #expect(sm.ssc == Self.hex(steps[0]["ssc"]!))
        let select = try sm.unwrap(Self.hex(steps[0]["response_apdu"]!))
        #expect(select.data.isEmpty && select.status == [0x90, 0x00])
        #expect(sm.ssc == Self.hex(steps[0]["response_ssc"]!))
        // READ BINARY, 4 bytes: 00 B0 00 00 04
        #expect(try sm.wrap(Self.hex("00B0000004")) == Self.hex(steps[1]["protected_command_apdu"]!))
        let read = try sm.unwrap(Self.hex(steps[1]["response_apdu"]!))
        #expect(read.data == Self.hex(steps[1]["decrypted_response_data"]!) && read.status == [0x90, 0x00])
        #expect(sm.ssc == Self.hex(steps[1]["response_ssc"]!))
    }

    @Test(.enabled(if: EMRTDSamples.available, "needs ../shared/testdata/emrtd (ICAO 9303-11 D.4 as JSON); absent here"))
    func aChangedResponseOrAWrongCounterIsRefused() throws {
        let v = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.example)) as? [String: Any])
        let steps = try #require(v["steps"] as? [[String: String]])
        func session() throws -> SecureMessaging {
            try SecureMessaging(cipher: .tdes, ksEnc: Self.hex(v["ks_enc"] as! String), ksMac: Self.hex(v["ks_mac"] as! String),
                                ssc: Self.hex(v["ssc_initial"] as! String))
        }
        var sm = try session()
        _ = try sm.wrap(Self.hex("00A4020C02011E"))
        var changed = Self.hex(steps[0]["response_apdu"]!)
        changed[3] ^= 0x01                                  // the protected status word
        #expect(throws: ChipError.self) { try sm.unwrap(changed) }
        var replay = try session()
        _ = try replay.wrap(Self.hex("00A4020C02011E"))
        _ = try replay.unwrap(Self.hex(steps[0]["response_apdu"]!))
        _ = try replay.wrap(Self.hex("00B0000004"))
        #expect(throws: ChipError.self) { try replay.unwrap(Self.hex(steps[0]["response_apdu"]!)) }   // an old answer
        var fresh = try session()
        #expect(throws: ChipError.self) { try fresh.unwrap(Self.hex("6A82")) }                            // no MAC at all
    }

    @Test func aesCMACIsRFC4493s() throws {
        let key = Self.hex("2B7E151628AED2A6ABF7158809CF4F3C")
        #expect(try LibCrypto.aesCMAC(key: key, []) == Self.hex("BB1D6929E95937287FA37D129B756746"))
        #expect(try LibCrypto.aesCMAC(key: key, Self.hex("6BC1BEE22E409F96E93D7E117393172A")) == Self.hex("070A16B46B4D4144F79BDD9DD04A287C"))
    }

    @Test func aesSessionsAgreeBothWays() throws {
        // The card's side made from the same primitives: a command wrapped by one session verifies
        // in a second one (its counter one behind), and an answer made there unwraps here.
        let ks = (enc: Self.hex("F5F0E35C0D7161EE6724EE513A0D9A7F"), mac: Self.hex("FE251C7858B356B24514B3BD5F4297D1"))
        var terminal = try SecureMessaging(cipher: .aes, ksEnc: ks.enc, ksMac: ks.mac, ssc: [UInt8](repeating: 0, count: 16))
        let wrapped = try terminal.wrap(Self.hex("00B0000004"))
        #expect(wrapped.prefix(4) == [0x0C, 0xB0, 0x00, 0x00] && wrapped.suffix(1) == [0x00])
        #expect(wrapped.count == 4 + 1 + 3 + 10 + 1)         // header, Lc, DO'97', DO'8E', Le
        // The card's answer: DO'87' (data 60145F01 encrypted with IV = E(KS_enc, SSC)), DO'99', DO'8E'.
        var card = terminal
        card.increment()
        let iv = try LibCrypto.crypt(.aesCBC, key: ks.enc, card.ssc, encrypt: true)
        let encrypted = try LibCrypto.crypt(.aesCBC, key: ks.enc, iv: iv, card.pad([0x60, 0x14, 0x5F, 0x01]), encrypt: true)
        let objects = [0x87, UInt8(encrypted.count + 1), 0x01] + encrypted + [0x99, 0x02, 0x90, 0x00]
        let answer = objects + [0x8E, 0x08] + (try card.mac(objects)) + [0x90, 0x00]
        let read = try terminal.unwrap(answer)
        #expect(read.data == [0x60, 0x14, 0x5F, 0x01] && read.status == [0x90, 0x00])
        #expect(throws: ChipError.self) { try SecureMessaging(cipher: .aes, ksEnc: ks.enc, ksMac: ks.mac, ssc: [0, 0]) }
    }
}
