/// Secure messaging (ICAO 9303-11 §9.8): command APDUs wrapped and response APDUs checked and
/// unwrapped with the session keys from BAC or PACE, so that a backend can drive a chip read
/// through a phone that only relays bytes. 3DES (§9.8.6.1: 3DES-CBC with a zero IV, retail MAC,
/// an 8-byte send sequence counter) and AES (§9.8.6.2: AES-CBC with IV = E(KS_enc, SSC), AES-CMAC
/// truncated to 8 bytes, a 16-byte SSC). The counter is incremented before each command and each
/// response. Every cryptographic step is libcrypto's.
public struct SecureMessaging: Sendable {
    public enum Cipher: String, Sendable {
        case tdes = "3DES"
        case aes = "AES"
    }

    public let cipher: Cipher
    public let ksEnc: [UInt8]
    public let ksMac: [UInt8]
    /// The send sequence counter as it stands (after the last wrap or unwrap).
    public private(set) var ssc: [UInt8]

    public init(cipher: Cipher, ksEnc: [UInt8], ksMac: [UInt8], ssc: [UInt8]) throws(ChipError) {
        let sizes = cipher == .tdes ? [16] : [16, 24, 32]
        guard sizes.contains(ksEnc.count), ksMac.count == ksEnc.count else {
            throw ChipError(.invalidInput, "\(cipher.rawValue) session keys are \(sizes.map(String.init).joined(separator: ", ")) bytes each (got \(ksEnc.count) and \(ksMac.count))")
        }
        guard ssc.count == (cipher == .tdes ? 8 : 16) else {
            throw ChipError(.invalidInput, "the \(cipher.rawValue) send sequence counter is \(cipher == .tdes ? 8 : 16) bytes (got \(ssc.count))")
        }
        (self.cipher, self.ksEnc, self.ksMac, self.ssc) = (cipher, ksEnc, ksMac, ssc)
    }

    var block: Int { cipher == .tdes ? 8 : 16 }

    mutating func increment() {
        for i in ssc.indices.reversed() {
            ssc[i] &+= 1
            if ssc[i] != 0 { break }
        }
    }

    /// ISO/IEC 9797-1 padding method 2 to the cipher's block.
    func pad(_ data: [UInt8]) -> [UInt8] { RetailMAC.pad(data, block: block) }

    func mac(_ data: [UInt8]) throws(ChipError) -> [UInt8] {
        // N = SSC ‖ data, padded (method 2); 3DES: the retail MAC (which pads N itself); AES:
        // CMAC's first 8 bytes over the padded N.
        cipher == .tdes ? try RetailMAC.mac(key: ksMac, ssc + data)
            : Array(try LibCrypto.aesCMAC(key: ksMac, pad(ssc + data)).prefix(8))
    }

    func iv() throws(ChipError) -> [UInt8] {
        cipher == .tdes ? [UInt8](repeating: 0, count: 8)
            : try LibCrypto.crypt(.aesCBC, key: ksEnc, ssc, encrypt: true)
    }

    static func length(_ n: Int) -> [UInt8] {
        n < 0x80 ? [UInt8(n)] : (n < 0x100 ? [0x81, UInt8(n)] : [0x82, UInt8(n >> 8), UInt8(n & 0xFF)])
    }

    /// The protected form of a short command APDU (`CLA INS P1 P2 [Lc data] [Le]`): CLA with the
    /// secure-messaging bits (0x0C), DO'87' with the padded, encrypted data (DO'85' for an odd
    /// INS), DO'97' with Le, DO'8E' with the MAC over the padded header and those objects.
    public mutating func wrap(_ command: [UInt8]) throws(ChipError) -> [UInt8] {
        guard command.count >= 4 else { throw ChipError(.invalidInput, "a command APDU has at least 4 bytes (CLA INS P1 P2), not \(command.count)") }
        var data: [UInt8] = [], le: [UInt8]?
        let body = command.dropFirst(4)
        if body.count == 1 {
            le = [body.first!]
        } else if !body.isEmpty {
            let lc = Int(body.first!)
            guard lc > 0, body.count == 1 + lc || body.count == 2 + lc else {
                throw ChipError(.invalidInput, "Lc \(lc) does not fit the \(body.count - 1) bytes after it (short APDUs only)")
            }
            data = Array(body.dropFirst().prefix(lc))
            if body.count == 2 + lc { le = [body.last!] }
        }
        increment()
        let header = [command[0] | 0x0C, command[1], command[2], command[3]]
        var objects: [UInt8] = []
        if !data.isEmpty {
            let encrypted = try LibCrypto.crypt(cipher == .tdes ? .tdesCBC : .aesCBC, key: ksEnc, iv: try iv(), pad(data), encrypt: true)
            let odd = command[1] & 1 == 1
            objects += (odd ? [0x85] : [0x87]) + Self.length(encrypted.count + (odd ? 0 : 1)) + (odd ? [] : [0x01]) + encrypted
        }
        if let le { objects += [0x97, 0x01] + le }
        let cc = try mac(pad(header) + objects)
        let protected = objects + [0x8E, 0x08] + cc
        return header + Self.length(protected.count).suffix(1) + protected + [0x00]
    }

    /// The response to the last wrapped command checked and unwrapped: DO'8E' must be the MAC over
    /// DO'87'/'85' and DO'99' with the counter incremented; the plain data and status word back.
    public mutating func unwrap(_ response: [UInt8]) throws(ChipError) -> (data: [UInt8], status: [UInt8]) {
        guard response.count >= 2 else { throw ChipError(.invalidInput, "a response APDU has at least its status word") }
        let body = Array(response.dropLast(2))
        var i = 0, covered: [UInt8] = [], encrypted: [UInt8]?, status: [UInt8]?, cc: [UInt8]?
        while i < body.count {
            let tag = body[i]
            guard i + 1 < body.count else { throw ChipError(.invalidInput, "the response ends inside a data object at byte \(i)") }
            var length = Int(body[i + 1]), header = 2
            if body[i + 1] == 0x81, i + 2 < body.count { length = Int(body[i + 2]); header = 3 }
            if body[i + 1] == 0x82, i + 3 < body.count { length = Int(body[i + 2]) << 8 | Int(body[i + 3]); header = 4 }
            guard i + header + length <= body.count else { throw ChipError(.invalidInput, "data object \(String(format: "%02X", tag)) at byte \(i) runs past the response") }
            let value = Array(body[(i + header)..<(i + header + length)])
            switch tag {
            case 0x87: encrypted = Array(value.dropFirst()); covered += body[i..<(i + header + length)]
            case 0x85: encrypted = value; covered += body[i..<(i + header + length)]
            case 0x99: status = value; covered += body[i..<(i + header + length)]
            case 0x8E: cc = value
            default: throw ChipError(.invalidInput, "an unexpected data object \(String(format: "%02X", tag)) at byte \(i) of the response")
            }
            i += header + length
        }
        increment()
        guard let cc else { throw ChipError(.macMismatch, "the response carries no MAC (DO'8E'): the card may have answered without secure messaging (status \(response.suffix(2).map { String(format: "%02X", $0) }.joined()))") }
        guard RetailMAC.equal(cc, try mac(covered)) else { throw ChipError(.macMismatch, "the response's MAC does not verify: wrong keys, a wrong counter, or a changed answer") }
        var data: [UInt8] = []
        if let encrypted {
            let plain = try LibCrypto.crypt(cipher == .tdes ? .tdesCBC : .aesCBC, key: ksEnc, iv: try iv(), encrypted, encrypt: false)
            guard let end = plain.lastIndex(of: 0x80), plain[(end + 1)...].allSatisfy({ $0 == 0 }) else {
                throw ChipError(.invalidInput, "the decrypted response data is not padded (ISO/IEC 9797-1 method 2)")
            }
            data = Array(plain[..<end])
        }
        return (data, status ?? Array(response.suffix(2)))
    }
}
