/// ISO/IEC 9797-1 MAC algorithm 3 ("retail MAC") with DES and padding method 2, as ICAO 9303-11
/// §9.8 prescribes for BAC and 3DES secure messaging.
///
/// Single-DES CBC with Ka over every block, then the last block decrypted with Kb and encrypted
/// with Ka again. The whole chain is the same as single-DES CBC over all blocks but the last, and
/// two-key 3DES (Ka, Kb, Ka) on the last block chained from there; both steps run in libcrypto
/// (single DES as 3DES with Ka = Kb, since OpenSSL 3 keeps single DES in its legacy provider).
enum RetailMAC {
    static func mac(key: [UInt8], _ data: [UInt8]) throws(ChipError) -> [UInt8] {
        precondition(key.count == 16)
        let padded = pad(data)
        let ka = Array(key.prefix(8))
        let head = padded.dropLast(8)
        var chain = [UInt8](repeating: 0, count: 8)
        if !head.isEmpty {
            chain = Array(try LibCrypto.crypt(.tdesCBC, key: ka + ka, Array(head), encrypt: true).suffix(8))
        }
        return try LibCrypto.crypt(.tdesCBC, key: key, iv: chain, Array(padded.suffix(8)), encrypt: true)
    }

    /// ISO/IEC 9797-1 padding method 2: 0x80, then zeros to a multiple of `block` bytes (always at
    /// least one byte): 8 for DES, 16 for AES secure messaging.
    static func pad(_ data: [UInt8], block: Int = 8) -> [UInt8] {
        var out = data + [0x80]
        while out.count % block != 0 { out.append(0) }
        return out
    }

    /// Compares without stopping at the first difference.
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var diff: UInt8 = 0
        for i in a.indices { diff |= a[i] ^ b[i] }
        return diff == 0
    }
}
