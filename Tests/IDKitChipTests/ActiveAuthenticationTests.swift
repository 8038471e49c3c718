import Foundation
import IDKitCore
import Testing
@testable import IDKitChip

/// Active authentication (ICAO 9303-11 §6.1) with keys and signatures made here by the `openssl`
/// command: RSA with ISO/IEC 9796-2 scheme 1 (the message block built here, the private-key
/// operation openssl's), ECDSA on brainpoolP256r1; and the DG15 of the BSI test set.
@Suite struct ActiveAuthenticationTests {
    static func openssl(_ arguments: [String], in dir: URL) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        p.arguments = arguments
        p.currentDirectoryURL = dir
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "openssl \(arguments.joined(separator: " "))")
    }

    static func workDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("idkit-aa-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func dg15(_ publicKey: [UInt8]) throws -> DataGroup15 {
        try DataGroup15([0x6F] + SecureMessaging.length(publicKey.count) + publicKey)
    }

    @Test func rsaWithISO9796Part2Scheme1() throws {
        let dir = try Self.workDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024", "-out", "key.pem"], in: dir)
        try Self.openssl(["pkey", "-in", "key.pem", "-pubout", "-outform", "DER", "-out", "pub.der"], in: dir)
        let dg15 = try Self.dg15(Array(try Data(contentsOf: dir.appendingPathComponent("pub.der"))))
        #expect(dg15.algorithm == "RSA" && dg15.bits == 1024 && dg15.curve == nil)
        let challenge: [UInt8] = [0x78, 0x17, 0x23, 0x86, 0x0C, 0x06, 0xC2, 0x26]
        // 6A ‖ M1 (106 bytes) ‖ SHA-1(M1 ‖ challenge) ‖ BC: what the chip signs with its private key.
        let m1 = (0..<106).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let block = [0x6A] + m1 + LibCrypto.digest(named: "SHA1", (m1 + challenge)[...])! + [0xBC]
        try Data(block).write(to: dir.appendingPathComponent("block.bin"))
        // The private-key operation without padding (m^d mod n): pkeyutl -decrypt with padding none.
        try Self.openssl(["pkeyutl", "-decrypt", "-inkey", "key.pem", "-pkeyopt", "rsa_padding_mode:none", "-in", "block.bin", "-out", "sig.bin"], in: dir)
        let signature = Array(try Data(contentsOf: dir.appendingPathComponent("sig.bin")))
        #expect(ActiveAuthentication.verify(dg15: dg15, challenge: challenge, signature: signature) == .valid)
        // Another challenge (a replayed answer), and a changed signature.
        #expect(ActiveAuthentication.verify(dg15: dg15, challenge: challenge.reversed(), signature: signature).name == "invalid")
        var changed = signature
        changed[50] ^= 0x01
        #expect(ActiveAuthentication.verify(dg15: dg15, challenge: challenge, signature: changed).name == "invalid")
    }

    @Test func ecdsaPlainOnBrainpoolP256r1() throws {
        let dir = try Self.workDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.openssl(["ecparam", "-name", "brainpoolP256r1", "-genkey", "-noout", "-out", "ec.pem"], in: dir)
        try Self.openssl(["pkey", "-in", "ec.pem", "-pubout", "-outform", "DER", "-out", "pub.der"], in: dir)
        let dg15 = try Self.dg15(Array(try Data(contentsOf: dir.appendingPathComponent("pub.der"))))
        #expect(dg15.algorithm == "EC" && dg15.bits == 256 && dg15.curve == "brainpoolP256r1")
        let challenge: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        try Data(challenge).write(to: dir.appendingPathComponent("challenge.bin"))
        try Self.openssl(["dgst", "-sha256", "-sign", "ec.pem", "-out", "sig.der", "challenge.bin"], in: dir)
        // DER SEQUENCE { r, s } to the plain r ‖ s of BSI TR-03111 (32 bytes each).
        let der = Array(try Data(contentsOf: dir.appendingPathComponent("sig.der")))
        let parts = try BERTLV.read(der, at: 0, within: 0..<der.count).children(der)
        func fixed(_ t: BERTLV) -> [UInt8] { let v = Array(der[t.value].drop { $0 == 0 }); return [UInt8](repeating: 0, count: 32 - v.count) + v }
        let plain = fixed(parts[0]) + fixed(parts[1])
        #expect(ActiveAuthentication.verify(dg15: dg15, challenge: challenge, signature: plain) == .valid)
        #expect(ActiveAuthentication.verify(dg15: dg15, challenge: [9, 9, 9, 9, 9, 9, 9, 9], signature: plain).name == "invalid")
        #expect(ActiveAuthentication.verify(dg15: dg15, challenge: challenge, signature: plain, ecdsaDigest: "SHA2-384").name == "invalid")
    }

    @Test(.enabled(if: EMRTDSamples.available, "needs ../shared/testdata/emrtd; absent here"))
    func theBSITestPassportsKey() throws {
        let dg15 = try DataGroup15(try EMRTDSamples.bytes("bsi-tr03105-5-refdata", "EF_DG15.bin"))
        #expect(dg15.algorithm == "RSA" && dg15.bits == 1024)
        #expect(throws: LDSError.self) { try DataGroup15(try EMRTDSamples.bytes("etsi-tr103200", "negative/DG15_EAC-LDS-I01.bin")) }
    }
}
