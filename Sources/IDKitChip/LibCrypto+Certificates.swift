internal import CCrypto
import Foundation

// X.509 certificates: read, issued by whom, kept parsed; and CSCA master lists.
extension LibCrypto {
    /// A DER or PEM certificate read by OpenSSL (nil when it is neither).
    static func certificate(_ bytes: [UInt8]) -> OpaquePointer? {
        bytes.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var p = buffer.baseAddress
            if let der = d2i_X509(nil, &p, buffer.count) { return der }
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_X509(bio, nil, nil, nil)
        }
    }

    /// Every certificate of a PEM file (several may follow each other), or the one DER certificate.
    static func certificates(inFile bytes: [UInt8]) -> [[UInt8]] {
        if let one = bytes.withUnsafeBufferPointer({ buffer -> OpaquePointer? in var p = buffer.baseAddress; return d2i_X509(nil, &p, buffer.count) }) {
            defer { X509_free(one) }
            return [fields(of: one).der]
        }
        var out: [[UInt8]] = []
        bytes.withUnsafeBufferPointer { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return }
            defer { BIO_free(bio) }
            while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) {
                out.append(fields(of: certificate).der)
                X509_free(certificate)
            }
            ERR_clear_error()    // the end of the file is an error in OpenSSL's queue
        }
        return out
    }

    /// Whether `issuer` issued `certificate`: names and key identifiers agree
    /// (X509_check_issued) and the issuer's key verifies the certificate's signature (X509_verify,
    /// which also takes keys with explicit EC domain parameters, as path validation does not).
    enum IssuedOutcome { case notIssuer, verified, signatureInvalid(String) }

    static func issued(_ certificate: Certificate, by issuer: Certificate) -> IssuedOutcome {
        guard let subject = certificate.x509, let ca = issuer.x509 else { return .notIssuer }
        guard X509_check_issued(ca, subject) == X509_V_OK else { return .notIssuer }
        ERR_clear_error()
        guard let key = X509_get0_pubkey(ca) else { return .signatureInvalid("the CSCA's key cannot be read: \(errorReason())") }
        return X509_verify(subject, key) == 1 ? .verified : .signatureInvalid(errorReason())
    }

    /// A certificate parsed once and kept (a CSCA of a ``CSCAStore``, the Document Signer a
    /// SignedData carries): its fields, and libcrypto's X509 with its key decoded and its
    /// extensions cached (X509_check_purpose), so that threads checking documents at once only
    /// read it.
    final class Certificate: @unchecked Sendable {
        let x509: OpaquePointer?
        let fields: CertificateFields

        convenience init(_ der: [UInt8]) {
            self.init(owning: LibCrypto.certificate(der), der: der)
        }

        /// Another reference to an X509 that its owner (a CMS structure) frees.
        convenience init(retaining x509: OpaquePointer?) {
            if let x509 { X509_up_ref(x509) }
            self.init(owning: x509, der: [])
        }

        private init(owning x509: OpaquePointer?, der: [UInt8]) {
            self.x509 = x509
            if let x509 {
                fields = LibCrypto.fields(of: x509)
                _ = X509_check_purpose(x509, -1, 0)
                _ = X509_get0_pubkey(x509)
            } else {
                fields = CertificateFields(subject: "", issuer: "", serialNumber: "", der: der)
            }
            ERR_clear_error()
        }

        deinit { X509_free(x509) }
    }

    /// The content of an ICAO CSCA master list (ICAO 9303-12 §9: a CMS SignedData of
    /// id-icao-cscaMasterList; its CscaMasterList is read by ``CSCAStore``) and whether its
    /// signature verifies with the signer certificate it carries.
    static func masterList(_ der: [UInt8]) throws(LDSError) -> (signature: SignatureOutcome, content: [UInt8]) {
        ERR_clear_error()
        let cms: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var p = buffer.baseAddress
            return d2i_CMS_ContentInfo(nil, &p, buffer.count)
        }
        guard let cms else { throw LDSError(.invalidSignedData, offset: 0, "OpenSSL cannot read the master list's CMS SignedData: \(errorReason())") }
        defer { CMS_ContentInfo_free(cms) }
        guard let pointer = CMS_get0_content(cms), let octets = pointer.pointee else {
            throw LDSError(.invalidSignedData, offset: 0, "the master list has no encapsulated content")
        }
        let content = Array(UnsafeBufferPointer(start: ASN1_STRING_get0_data(octets), count: Int(ASN1_STRING_length(octets))))
        let signature = try verifySignedData(der[...])
        return (signature, content)
    }
}
