import IDKitCore

/// Passive authentication (ICAO 9303-11 §5.1): is what the chip holds what the issuer signed?
/// Each data group given is hashed and compared with the SOD's entry, and the SOD's signature is
/// verified with the Document Signer certificate it carries. Each check has its own outcome;
/// the whole is `passed` only when every check that decides it was performed and valid.
///
/// The Document Signer is chained to a trusted CSCA (``CSCAStore``): the CSCA that issued it (names
/// and key identifiers) must verify its signature and have been valid when it issued it. Without
/// a CSCA for its issuer the chain is `notPerformed` and the result at best `incomplete`, never
/// `passed` (a signature by a certificate nobody vouched for proves nothing). Expired
/// certificates at the reference date are warnings: a Document Signer outlives its signing period
/// by the documents' validity.
public struct PassiveAuthentication: Sendable {
    public enum Check: Sendable, Equatable {
        case valid
        case invalid(String)
        case notPerformed(String)

        public var name: String {
            switch self {
            case .valid: "valid"
            case .invalid: "invalid"
            case .notPerformed: "notPerformed"
            }
        }

        /// Why it is not valid (`nil` when it is).
        public var reason: String? {
            switch self {
            case .valid: nil
            case .invalid(let r), .notPerformed(let r): r
            }
        }
    }

    public enum Result: String, Sendable, CaseIterable {
        case passed, failed, incomplete
    }

    public struct Signer: Sendable, Equatable {
        public var subject: String
        public var issuer: String
        public var serialNumber: String
        public var notBefore: String?
        public var notAfter: String?
        /// The certificate's DER.
        public var der: [UInt8]
    }

    /// The SOD as read, `nil` when it could not be (then `structure` says why).
    public let securityObject: SecurityObject?
    /// The SOD's structure against ICAO 9303-10.
    public let structure: Check
    /// Per data group number: given and listed (`valid`/`invalid`), given but not listed (its
    /// content is not authenticated) or listed but not given (`notPerformed`).
    public let dataGroupHashes: [(number: Int, check: Check)]
    public let signature: Check
    public let certificateChain: Check
    public let documentSigner: Signer?
    /// The CSCA the Document Signer chains to.
    public let csca: Signer?
    /// The numbers of the data groups given.
    let given: Set<Int>
    /// What the SOD does otherwise than ICAO 9303 says but was accepted (issued documents do).
    public let warnings: [String]

    /// Verifies `sod` (EF.SOD's bytes) and the data groups given by number (each file's bytes),
    /// chaining the Document Signer to `cscas` when given, judging validity at `referenceDate`.
    public init(sod: [UInt8], dataGroups: [Int: [UInt8]], cscas: CSCAStore? = nil, referenceDate: String? = nil) {
        var object: SecurityObject?
        var structure = Check.valid
        do {
            object = try SecurityObject(sod)
        } catch {
            structure = .invalid(error.description)
        }
        securityObject = object
        self.structure = structure
        var hashes: [(number: Int, check: Check)] = []
        if let object {
            for (number, expected) in object.dataGroupHashes {
                if let file = dataGroups[number] {
                    hashes.append((number, object.hash(file) == expected ? .valid
                                   : .invalid("the hash of DG\(number) is not the one the SOD lists")))
                } else {
                    hashes.append((number, .notPerformed("DG\(number) is listed in the SOD but was not given")))
                }
            }
            for number in dataGroups.keys.sorted() where !object.dataGroupHashes.contains(where: { $0.number == number }) {
                hashes.append((number, .notPerformed("DG\(number) was given but the SOD lists no hash for it: its content is not authenticated")))
            }
            hashes.sort { $0.number < $1.number }
        }
        dataGroupHashes = hashes
        given = Set(dataGroups.keys)
        if let object {
            let signer = SignerVerification(object.signedData, file: "SOD", cscas: cscas, referenceDate: referenceDate)
            (signature, documentSigner, certificateChain, csca) = (signer.signature, signer.documentSigner, signer.certificateChain, signer.csca)
            warnings = object.warnings + signer.notes
        } else {
            signature = .notPerformed("the SOD cannot be read")
            certificateChain = .notPerformed("there is no Document Signer certificate to chain")
            (documentSigner, csca, warnings) = (nil, nil, [])
        }
    }

    /// `failed` when any check is invalid; `passed` when the structure, the signature and the
    /// chain are valid and every data group given is listed in the SOD with its hash (at least
    /// one); else `incomplete`.
    public var result: Result {
        let all = [structure, signature, certificateChain] + dataGroupHashes.map(\.check)
        if all.contains(where: { if case .invalid = $0 { true } else { false } }) { return .failed }
        let givenChecks = dataGroupHashes.filter { given.contains($0.number) }.map(\.check)
        if [structure, signature, certificateChain].allSatisfy({ $0 == .valid }) && !givenChecks.isEmpty
            && givenChecks.allSatisfy({ $0 == .valid }) {
            return .passed
        }
        return .incomplete
    }

    /// Why the result is not `passed`: every check's reason, in order.
    public var reasons: [String] {
        ([structure, signature, certificateChain] + dataGroupHashes.map(\.check)).compactMap(\.reason)
    }

    /// The `passiveAuthentication` object of the chip contract: `result`, `dataGroupHashes`
    /// (`"DG1": "valid"|"invalid"|"notPerformed"`), `signature`, `certificateChain`,
    /// `documentSigner` and `csca` (`subject`, `issuer`, `serialNumber`, `notBefore`, `notAfter`)
    /// or null, `reasons`, `warnings`.
    public func writeJSON(to w: inout JSONWriter) {
        w.beginObject()
        w.key("result"); w.string(result.rawValue)
        w.key("dataGroupHashes"); w.beginObject()
        for (number, check) in dataGroupHashes { w.key(dynamic: "DG\(number)"); w.string(check.name) }
        w.endObject()
        w.key("signature"); w.string(signature.name)
        w.key("certificateChain"); w.string(certificateChain.name)
        w.key("documentSigner"); Self.writeCertificate(documentSigner, to: &w)
        w.key("csca"); Self.writeCertificate(csca, to: &w)
        w.key("reasons"); w.beginArray()
        for r in reasons { w.string(r) }
        w.endArray()
        w.key("warnings"); w.beginArray()
        for r in warnings { w.string(r) }
        w.endArray()
        w.endObject()
    }
}

extension PassiveAuthentication {
    /// `{"subject", "issuer", "serialNumber", "notBefore", "notAfter"}`, or `null`.
    static func writeCertificate(_ s: Signer?, to w: inout JSONWriter) {
        guard let s else { w.null(); return }
        w.beginObject()
        w.key("subject"); w.string(s.subject)
        w.key("issuer"); w.string(s.issuer)
        w.key("serialNumber"); w.string(s.serialNumber)
        w.key("notBefore"); w.string(s.notBefore)
        w.key("notAfter"); w.string(s.notAfter)
        w.endObject()
    }
}

extension PassiveAuthentication.Signer {
    init(_ f: LibCrypto.CertificateFields) {
        self.init(subject: f.subject, issuer: f.issuer, serialNumber: f.serialNumber, notBefore: f.notBefore, notAfter: f.notAfter, der: f.der)
    }
}

/// The signature of a chip's signed file (EF.SOD, EF.CardSecurity) verified with the Document
/// Signer certificate it carries, and that certificate chained to a trusted CSCA (ICAO 9303-11
/// §5.1, 9303-12 §7): issued by it (names and key identifiers, its key verifying the signature),
/// valid when it signed, the CSCA valid when it issued the DS, not revoked by a CRL of the CSCA.
struct SignerVerification {
    typealias Check = PassiveAuthentication.Check
    typealias Signer = PassiveAuthentication.Signer

    var signature: Check
    var documentSigner: Signer?
    var certificateChain: Check
    var csca: Signer?
    var notes: [String] = []

    /// `contentInfo`: the file's CMS ContentInfo; `file`: its name in reasons ("SOD").
    init(_ contentInfo: ArraySlice<UInt8>, file: String, cscas: CSCAStore?, referenceDate: String?) {
        var signer: Signer?
        var certificate: LibCrypto.Certificate?
        var signingTime: String?
        do {
            switch try LibCrypto.verifySignedData(contentInfo) {
            case .valid(let s, let note, let time):
                (signer, certificate) = (Signer(s.fields), s)
                signature = .valid
                signingTime = time
                if let note { notes.append(note) }
            case .invalid(let reason, let s):
                (signer, certificate) = (s.map { Signer($0.fields) }, s)
                signature = .invalid("the \(file)'s signature does not verify: \(reason)")
            case .noSignerCertificate:
                signature = .notPerformed("the \(file) carries no Document Signer certificate")
            }
        } catch {
            signature = .invalid(error.description)
        }
        documentSigner = signer
        var chain = Check.notPerformed("no CSCA was given")
        var issuer: Signer?
        if let signer, let certificate, let cscas {
            chain = .notPerformed("no CSCA among \(cscas.source) issued the Document Signer (issuer \(signer.issuer))")
            for candidate in cscas.candidates(issuer: signer.issuer) {
                switch LibCrypto.issued(certificate, by: candidate) {
                case .notIssuer: continue
                case .signatureInvalid(let reason):
                    chain = .invalid("the CSCA \(candidate.fields.subject) does not verify the Document Signer's signature: \(reason)")
                    continue
                case .verified:
                    let ca = Signer(candidate.fields)
                    issuer = ca
                    if let time = signingTime, let from = signer.notBefore, let to = signer.notAfter, !(from <= time && time <= to) {
                        chain = .invalid("the Document Signer (valid \(from) to \(to)) was not valid when it signed the \(file) (\(time))")
                    } else if let issued = signer.notBefore, let from = ca.notBefore, let to = ca.notAfter, !(from <= issued && issued <= to) {
                        chain = .invalid("the CSCA (valid \(from) to \(to)) was not valid when the Document Signer was issued (\(issued))")
                    } else {
                        switch LibCrypto.revocation(of: certificate, issuer: candidate, crls: cscas.crls) {
                        case .revoked(let date): chain = .invalid("the Document Signer is revoked by its CSCA's CRL" + (date.map { " (since \($0))" } ?? ""))
                        case .crlInvalid(let reason): chain = .invalid(reason)
                        case .notCovered:
                            chain = .valid
                            if !cscas.crls.isEmpty { notes.append("no CRL of the CSCA \(ca.subject) was given: revocation not checked") }
                        case .notRevoked: chain = .valid
                        }
                    }
                }
                if chain == .valid { break }
            }
        } else if signer == nil {
            chain = .notPerformed("there is no Document Signer certificate to chain")
        }
        if let date = referenceDate {
            if let end = signer?.notAfter, end < date { notes.append("the Document Signer certificate expired on \(end) (reference date \(date))") }
            if let end = issuer?.notAfter, end < date { notes.append("the CSCA certificate expired on \(end) (reference date \(date))") }
        }
        csca = issuer
        certificateChain = chain
    }
}
