public import IDKitCore

/// EF.CardSecurity (ICAO 9303-11 §9.2.1 with PACE chip authentication mapping and chip
/// authentication, BSI TR-03110-3 §A.1.2): the chip's SecurityInfos signed by a Document Signer —
/// a CMS SignedData (no `77` wrapper) whose eContentType is id-SecurityObject
/// (0.4.0.127.0.7.3.2.1) and whose content is a SET of SecurityInfo. Its signature and the chain of
/// its signer are checked as the SOD's are; it authenticates the chip-authentication public keys
/// that PACE-CAM and chip authentication prove the chip holds.
public struct CardSecurity: Sendable {
    public typealias Check = PassiveAuthentication.Check

    /// id-SecurityObject (BSI TR-03110-3 §A.1.2.5).
    public static let securityObjectType = "0.4.0.127.0.7.3.2.1"

    /// The signed SecurityInfos, `nil` when they cannot be read (then `structure` says why).
    public let securityInfos: SecurityInfos?
    public let structure: Check
    public let signature: Check
    public let certificateChain: Check
    public let documentSigner: PassiveAuthentication.Signer?
    public let csca: PassiveAuthentication.Signer?
    /// Deviations accepted (BER lengths, id-data, no signed attributes: as the SOD's) and expiries.
    public let warnings: [String]

    public init(_ bytes: [UInt8], cscas: CSCAStore? = nil, referenceDate: String? = nil) {
        var infos: SecurityInfos?
        var structure = Check.valid
        var notes: [String] = []
        var contentInfo: ArraySlice<UInt8>?
        do throws(LDSError) {
            let cms = try SignedContent(bytes, within: 0..<bytes.count, expecting: Self.securityObjectType, what: "id-SecurityObject")
            contentInfo = cms.contentInfo
            notes = cms.warnings
            do throws(LDSError) {
                infos = try SecurityInfos(cms.content)
            } catch {
                throw LDSError(error.kind, offset: cms.contentOffset + error.offset, tag: error.tag, "in the SecurityInfos: " + error.message)
            }
        } catch {
            structure = .invalid(error.description)
        }
        securityInfos = infos
        self.structure = structure
        if let contentInfo {
            let signer = SignerVerification(contentInfo, file: "EF.CardSecurity", cscas: cscas, referenceDate: referenceDate)
            (signature, documentSigner, certificateChain, csca) = (signer.signature, signer.documentSigner, signer.certificateChain, signer.csca)
            warnings = notes + signer.notes
        } else {
            signature = .notPerformed("EF.CardSecurity cannot be read")
            certificateChain = .notPerformed("there is no Document Signer certificate to chain")
            (documentSigner, csca, warnings) = (nil, nil, notes)
        }
    }

    /// `failed` when a check is invalid, `passed` when all three are valid, else `incomplete`.
    public var result: PassiveAuthentication.Result {
        let all = [structure, signature, certificateChain]
        if all.contains(where: { if case .invalid = $0 { true } else { false } }) { return .failed }
        return all.allSatisfy { $0 == .valid } ? .passed : .incomplete
    }

    public var reasons: [String] {
        [structure, signature, certificateChain].compactMap(\.reason)
    }

    /// `{"result", "signature", "certificateChain", "documentSigner", "csca", "securityInfos":
    /// [{"oid", "name", "parameters"}], "reasons", "warnings"}`.
    public func writeJSON(to w: inout JSONWriter) {
        w.beginObject()
        w.key("result"); w.string(result.rawValue)
        w.key("signature"); w.string(signature.name)
        w.key("certificateChain"); w.string(certificateChain.name)
        w.key("documentSigner"); PassiveAuthentication.writeCertificate(documentSigner, to: &w)
        w.key("csca"); PassiveAuthentication.writeCertificate(csca, to: &w)
        w.key("securityInfos")
        if let securityInfos { securityInfos.writeJSON(to: &w) } else { w.null() }
        w.key("reasons"); w.beginArray(); for r in reasons { w.string(r) }; w.endArray()
        w.key("warnings"); w.beginArray(); for r in warnings { w.string(r) }; w.endArray()
        w.endObject()
    }
}
