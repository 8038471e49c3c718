import Foundation
public import IDKitCore
public import IDKitMRZ

/// What `idkit bac` and `POST /v1/bac` are asked: the document's MRZ (its lines, or the document
/// number, birth and expiry dates), or a card access number, and optionally a BAC challenge to
/// answer and the card's answer to check.
public struct BACRequest: Sendable, Equatable {
    public var lines: [String] = []
    public var documentNumber: String?
    public var dateOfBirth: String?
    public var dateOfExpiry: String?
    public var can: String?
    public var rndIC: [UInt8]?
    public var rndIFD: [UInt8]?
    public var kIFD: [UInt8]?
    public var cardResponse: [UInt8]?
    public init() {}

    /// The request object of `POST /v1/bac` and `idkit_bac_keys`: `{"lines": [...]}`, `{"mrz":
    /// "L1\nL2"}` or `{"documentNumber", "dateOfBirth", "dateOfExpiry"}`, optionally `"can"` and
    /// the challenge `"rndIC"`, `"rndIFD"`, `"kIFD"` with `"cardResponse"` (hex). Members of the
    /// wrong type or that do not go together are ``ChipError/Kind/invalidRequest``; hex that is
    /// not hex or has the wrong length is ``ChipError/Kind/invalidHex``.
    public init(json: [UInt8]) throws(ChipError) {
        func wrong(_ detail: String) -> ChipError { ChipError(.invalidRequest, detail) }
        guard let o = (try? JSONSerialization.jsonObject(with: Data(json))) as? [String: Any] else { throw wrong("the body is not a JSON object") }
        for key in ["mrz", "documentNumber", "dateOfBirth", "dateOfExpiry", "can", "rndIC", "rndIFD", "kIFD", "cardResponse"] {
            if let v = o[key], !(v is String) { throw wrong("member \(key) must be a string") }
        }
        self.init()
        if let lines = o["lines"] {
            guard let l = lines as? [String] else { throw wrong("member lines must be an array of strings") }
            self.lines = l
        } else if let mrz = o["mrz"] as? String {
            self.lines = mrz.split(whereSeparator: \.isNewline).map(String.init)
        }
        (documentNumber, dateOfBirth, dateOfExpiry, can) = (o["documentNumber"] as? String, o["dateOfBirth"] as? String, o["dateOfExpiry"] as? String, o["can"] as? String)
        let values = [documentNumber, dateOfBirth, dateOfExpiry].compactMap { $0 }
        if !values.isEmpty && values.count < 3 { throw wrong("documentNumber, dateOfBirth and dateOfExpiry go together (all three)") }
        if !values.isEmpty && !lines.isEmpty { throw wrong("give either the MRZ (lines or mrz) or documentNumber/dateOfBirth/dateOfExpiry, not both") }
        if values.isEmpty && lines.isEmpty && can == nil { throw wrong("no MRZ: give lines, mrz, documentNumber/dateOfBirth/dateOfExpiry or can") }
        func hex(_ key: String, _ count: Int) throws(ChipError) -> [UInt8]? {
            guard let text = o[key] as? String else { return nil }
            return try Hex.decode(text, name: key, count: count)
        }
        (rndIC, rndIFD, kIFD, cardResponse) = (try hex("rndIC", 8), try hex("rndIFD", 8), try hex("kIFD", 16), try hex("cardResponse", 40))
        let challenge = [rndIC, rndIFD, kIFD].filter { $0 != nil }.count
        if challenge != 0 && challenge != 3 { throw wrong("rndIC, rndIFD and kIFD go together (all three)") }
        if cardResponse != nil && challenge == 0 { throw wrong("cardResponse needs rndIC, rndIFD and kIFD") }
    }
}

/// The answer: chip access keys (ICAO 9303-11 §9.7: K_seed, K_enc, K_mac from MRZ_information;
/// PACE K_π per cipher), whether the MRZ's check digits allow BAC, and with a challenge the
/// EXTERNAL AUTHENTICATE data and, with the card's answer verified, the session keys. One writer
/// for the `idkit bac --json` contract, used by the command line and the service.
public struct BACReport: Sendable {
    public var mrzInformation: MRZInformation?
    public var keys: BACKeys?
    public var bacReady = true
    /// PACE K_π per cipher, from the CAN when one is given, else from the MRZ.
    public var pace: [(cipher: ChipCipher, key: [UInt8])] = []
    public var paceFromCAN = false
    public var externalAuthenticate: [UInt8]?
    public var session: BACSessionKeys?

    public init(_ r: BACRequest) throws(ChipError) {
        if let can = r.can {
            let password = try PACEPassword.can(validating: can)
            pace = ChipCipher.allCases.map { ($0, password.key(for: $0)) }
            paceFromCAN = true
        }
        if let number = r.documentNumber, let birth = r.dateOfBirth, let expiry = r.dateOfExpiry {
            mrzInformation = try MRZInformation(documentNumber: number, dateOfBirth: birth, dateOfExpiry: expiry)
        } else if !r.lines.isEmpty {
            let mrz: MRZResult
            do {
                mrz = try MRZParser().parse(lines: r.lines.map { String($0.filter { $0 != " " && $0 != "\t" && $0 != "\r" }) })
            } catch {
                throw ChipError(.invalidInput, "MRZ: \(error)")
            }
            mrzInformation = try MRZInformation(mrz: mrz)
            bacReady = mrz.isBACReady
        }
        guard let information = mrzInformation else { return }
        let keys = BACKeys(information)
        self.keys = keys
        if r.can == nil {
            let password = PACEPassword.mrz(information)
            pace = ChipCipher.allCases.map { ($0, password.key(for: $0)) }
        }
        if let rndIC = r.rndIC, let rndIFD = r.rndIFD, let kIFD = r.kIFD {
            let auth = try BACAuthentication(keys: keys, rndIC: rndIC, rndIFD: rndIFD, kIFD: kIFD)
            externalAuthenticate = auth.externalAuthenticateData
            if let response = r.cardResponse { session = try auth.sessionKeys(cardResponse: response) }
        }
    }

    /// The `idkit bac --json` object (docs/contracts.md), one line with its newline.
    public func writeJSON(to w: inout JSONWriter) {
        func writePACE(_ w: inout JSONWriter) {
            w.key("paceKPi"); w.beginObject()
            for (cipher, key) in pace { w.key(dynamic: cipher.rawValue); w.string(Hex.encode(key)) }
            w.endObject()
        }
        w.beginObject()
        if paceFromCAN { writePACE(&w) }
        if let information = mrzInformation, let keys {
            w.key("mrzInformation"); w.string(information.text)
            w.key("kSeed"); w.string(Hex.encode(keys.kSeed))
            w.key("kEnc"); w.string(Hex.encode(keys.kEnc))
            w.key("kMac"); w.string(Hex.encode(keys.kMac))
            w.key("bacReady"); w.bool(bacReady)
            if !paceFromCAN { writePACE(&w) }
            if let e = externalAuthenticate { w.key("externalAuthenticate"); w.string(Hex.encode(e)) }
            if let s = session {
                w.key("kIC"); w.string(Hex.encode(s.kIC))
                w.key("ksEnc"); w.string(Hex.encode(s.ksEnc))
                w.key("ksMac"); w.string(Hex.encode(s.ksMac))
                w.key("ssc"); w.string(Hex.encode(s.ssc))
            }
        }
        w.endObject()
        w.newline()
    }
}
