internal import CCrypto
import Foundation

// Certificate revocation lists.
extension LibCrypto {
    /// Every CRL of a file (DER, or PEM, several may follow each other), DER.
    static func crls(inFile bytes: [UInt8]) -> [[UInt8]] {
        func der(_ crl: OpaquePointer) -> [UInt8] {
            let length = i2d_X509_CRL(crl, nil)
            guard length > 0 else { return [] }
            var out = [UInt8](repeating: 0, count: Int(length))
            out.withUnsafeMutableBufferPointer { b in var p = b.baseAddress; _ = i2d_X509_CRL(crl, &p) }
            return out
        }
        if let one = bytes.withUnsafeBufferPointer({ b -> OpaquePointer? in var p = b.baseAddress; return d2i_X509_CRL(nil, &p, b.count) }) {
            defer { X509_CRL_free(one) }
            return [der(one)]
        }
        var out: [[UInt8]] = []
        bytes.withUnsafeBufferPointer { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return }
            defer { BIO_free(bio) }
            while let crl = PEM_read_bio_X509_CRL(bio, nil, nil, nil) {
                out.append(der(crl))
                X509_CRL_free(crl)
            }
            ERR_clear_error()
        }
        return out.filter { !$0.isEmpty }
    }

    enum RevocationOutcome { case notCovered, notRevoked, revoked(date: String?), crlInvalid(String) }

    /// Whether `certificate` is revoked by one of `crls` that its `issuer` signed (the CRL's issuer
    /// name is the CA's subject and the CA's key verifies the CRL).
    static func revocation(of certificate: Certificate, issuer: Certificate, crls: [[UInt8]]) -> RevocationOutcome {
        guard !crls.isEmpty else { return .notCovered }
        guard let subject = certificate.x509, let ca = issuer.x509 else { return .notCovered }
        var outcome = RevocationOutcome.notCovered
        for bytes in crls {
            guard let crl = bytes.withUnsafeBufferPointer({ b -> OpaquePointer? in var p = b.baseAddress; return d2i_X509_CRL(nil, &p, b.count) }) else { continue }
            defer { X509_CRL_free(crl) }
            guard X509_NAME_cmp(X509_CRL_get_issuer(crl), X509_get_subject_name(ca)) == 0 else { continue }
            ERR_clear_error()
            guard let key = X509_get0_pubkey(ca), X509_CRL_verify(crl, key) == 1 else {
                outcome = .crlInvalid("a CRL naming the CSCA as its issuer does not verify with its key: \(errorReason())")
                continue
            }
            var entry: OpaquePointer?
            if X509_CRL_get0_by_serial(crl, &entry, X509_get0_serialNumber(subject)) == 1 {
                var parts = tm()
                let date = entry.flatMap { X509_REVOKED_get0_revocationDate($0) }.flatMap { ASN1_TIME_to_tm($0, &parts) == 1 ? String(format: "%04d-%02d-%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday)) : nil }
                return .revoked(date: date)
            }
            outcome = .notRevoked
        }
        return outcome
    }
}
