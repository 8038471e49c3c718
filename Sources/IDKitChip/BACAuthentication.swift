/// The BAC mutual authentication of ICAO 9303-11 §9.7.2 / Appendix D.3, terminal side.
///
/// After GET CHALLENGE has given the card's nonce RND.IC, the terminal picks RND.IFD and its key
/// half K.IFD, sends `E_IFD ‖ M_IFD` in EXTERNAL AUTHENTICATE, where `S = RND.IFD ‖ RND.IC ‖ K.IFD`,
/// `E_IFD = 3DES-CBC(K_enc, S)` (zero IV) and `M_IFD = retail MAC(K_mac, E_IFD)`. The card answers
/// `E_IC ‖ M_IC` over `R = RND.IC ‖ RND.IFD ‖ K.IC`; from `K.IFD ⊕ K.IC` come the session keys.
public struct BACAuthentication: Sendable {
    public let keys: BACKeys
    public let rndIC: [UInt8]
    public let rndIFD: [UInt8]
    public let kIFD: [UInt8]
    /// The EXTERNAL AUTHENTICATE command data: `E_IFD ‖ M_IFD` (40 bytes).
    public let externalAuthenticateData: [UInt8]

    /// `rndIC` and `rndIFD` are 8 bytes, `kIFD` 16. A real terminal draws RND.IFD and K.IFD from a
    /// secure random source for every session; fixed values are for tests and worked examples.
    public init(keys: BACKeys, rndIC: [UInt8], rndIFD: [UInt8], kIFD: [UInt8]) throws(ChipError) {
        for (name, value, count) in [("RND.IC", rndIC, 8), ("RND.IFD", rndIFD, 8), ("K.IFD", kIFD, 16)] where value.count != count {
            throw ChipError(.invalidInput, "\(name): expected \(count) bytes, found \(value.count)")
        }
        self.keys = keys
        self.rndIC = rndIC
        self.rndIFD = rndIFD
        self.kIFD = kIFD
        let eIFD = try LibCrypto.crypt(.tdesCBC, key: keys.kEnc, rndIFD + rndIC + kIFD, encrypt: true)
        externalAuthenticateData = eIFD + (try RetailMAC.mac(key: keys.kMac, eIFD))
    }

    /// Checks the card's answer (`E_IC ‖ M_IC`, 40 bytes, without the status word) and derives the
    /// session keys. Refuses an answer whose MAC fails or that does not echo both challenges.
    public func sessionKeys(cardResponse: [UInt8]) throws(ChipError) -> BACSessionKeys {
        guard cardResponse.count == 40 else {
            throw ChipError(.invalidResponseLength,
                            "card response: expected 40 bytes (E_IC 32 ‖ M_IC 8, without the status word), found \(cardResponse.count)")
        }
        let eIC = Array(cardResponse.prefix(32)), mIC = Array(cardResponse.suffix(8))
        guard RetailMAC.equal(try RetailMAC.mac(key: keys.kMac, eIC), mIC) else {
            throw ChipError(.macMismatch, "card response: M_IC does not verify under K_mac (wrong MRZ data, or a damaged answer)")
        }
        let r = try LibCrypto.crypt(.tdesCBC, key: keys.kEnc, eIC, encrypt: false)
        guard RetailMAC.equal(Array(r[8..<16]), rndIFD) else {
            throw ChipError(.challengeMismatch, "card response: bytes 9–16 of the decrypted answer are not RND.IFD")
        }
        guard RetailMAC.equal(Array(r[0..<8]), rndIC) else {
            throw ChipError(.challengeMismatch, "card response: bytes 1–8 of the decrypted answer are not RND.IC")
        }
        let kIC = Array(r[16..<32])
        let seed = zip(kIFD, kIC).map { $0 ^ $1 }
        return BACSessionKeys(
            kIC: kIC,
            ksEnc: ChipKeyDerivation.derive(seed, counter: ChipKeyDerivation.encryptionCounter, for: .tdes),
            ksMac: ChipKeyDerivation.derive(seed, counter: ChipKeyDerivation.macCounter, for: .tdes),
            // 9303-11 §9.8.6.3: the four least significant bytes of RND.IC, then those of RND.IFD.
            ssc: Array(rndIC.suffix(4) + rndIFD.suffix(4)))
    }
}

/// What a successful BAC gives: the secure-messaging keys and the send sequence counter.
public struct BACSessionKeys: Sendable, Equatable, Hashable {
    /// The card's key half, from its answer.
    public let kIC: [UInt8]
    public let ksEnc: [UInt8]
    public let ksMac: [UInt8]
    /// The initial send sequence counter (8 bytes).
    public let ssc: [UInt8]
}
