internal import CCrypto
import Foundation

/// Passive authentication's cryptography, all of it libcrypto's: digests by the SOD's algorithm,
/// the CMS SignedData signature (RSA PKCS#1 v1.5, RSASSA-PSS, ECDSA, also with the explicit curve
/// parameters many Document Signer keys carry) and the fields of an X.509 certificate.
extension LibCrypto {
    /// The digest algorithms of ICAO 9303-12 §4.4.1 by OID: SHA-1, SHA-224, SHA-256, SHA-384, SHA-512.
    static let digestNames: [String: (name: String, fetch: String)] = [
        "1.3.14.3.2.26": ("SHA-1", "SHA1"),
        "2.16.840.1.101.3.4.2.4": ("SHA-224", "SHA2-224"),
        "2.16.840.1.101.3.4.2.1": ("SHA-256", "SHA2-256"),
        "2.16.840.1.101.3.4.2.2": ("SHA-384", "SHA2-384"),
        "2.16.840.1.101.3.4.2.3": ("SHA-512", "SHA2-512"),
    ]

    /// The digests fetched once: OpenSSL 3 looks an algorithm up in its provider, under a lock, on
    /// every use of EVP_sha1() and friends, which costs more than hashing 24 bytes; fetched objects
    /// are immutable and may be shared between threads (OpenSSL's "Algorithm fetching" guide).
    nonisolated(unsafe) static let fetchedDigests: [String: OpaquePointer] = {
        var out: [String: OpaquePointer] = [:]
        for name in ["SHA1", "SHA2-224", "SHA2-256", "SHA2-384", "SHA2-512"] { if let md = EVP_MD_fetch(nil, name, nil) { out[name] = md } }
        return out
    }()

    /// `data` hashed with the algorithm named by its OpenSSL name (`digestNames`' `fetch`).
    static func digest(named name: String, _ data: ArraySlice<UInt8>) -> [UInt8]? {
        guard let md = fetchedDigests[name] else { return nil }
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = data.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { EVP_Digest(input.baseAddress, input.count, $0.baseAddress, &length, md, nil) }
        }
        return ok == 1 ? Array(out.prefix(Int(length))) : nil
    }

    /// The fields of a certificate the passive-authentication report names.
    struct CertificateFields {
        var subject: String
        var issuer: String
        var serialNumber: String
        var notBefore: String?
        var notAfter: String?
        /// The certificate's DER, for the chain.
        var der: [UInt8]
    }

    /// Outcome of the SignedData's signature check.
    enum SignatureOutcome {
        /// `note`: how the signer's certificate was found when not as RFC 5652 says.
        case valid(signer: Certificate, note: String?, signingTime: String?)
        case invalid(reason: String, signer: Certificate?)
        case noSignerCertificate
    }

    /// The CMS SignedData (DER, without EF.SOD's `77` wrapper) verified with the certificate it
    /// carries: the messageDigest attribute against the eContent's hash, and the signature over
    /// the signed attributes. The certificate itself is not judged here (the chain is separate).
    static func verifySignedData(_ der: ArraySlice<UInt8>) throws(LDSError) -> SignatureOutcome {
        ERR_clear_error()
        let cms: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var p = buffer.baseAddress
            return d2i_CMS_ContentInfo(nil, &p, buffer.count)
        }
        guard let cms else { throw LDSError(.invalidSignedData, offset: 0, "OpenSSL cannot read the CMS SignedData: \(errorReason())") }
        defer { CMS_ContentInfo_free(cms) }
        guard let certificates = CMS_get1_certs(cms) else { return .noSignerCertificate }
        defer { OPENSSL_sk_pop_free(certificates, { X509_free(OpaquePointer($0)) }) }
        let signerInfos = CMS_get0_SignerInfos(cms)
        guard OPENSSL_sk_num(signerInfos) >= 1, let signerInfo = OPENSSL_sk_value(signerInfos, 0) else {
            return .invalid(reason: "the SignedData has no SignerInfo", signer: nil)
        }
        guard OPENSSL_sk_num(certificates) > 0 else { return .noSignerCertificate }
        ERR_clear_error()
        let ok = CMS_verify(cms, certificates, nil, nil, nil, UInt32(CMS_NO_SIGNER_CERT_VERIFY | CMS_BINARY))
        let reason = ok == 1 ? "" : errorReason()
        // The signer's certificate: the one CMS_verify used, else the one the SignerInfo names.
        var signer: Certificate?
        if ok == 1, let signers = CMS_get0_signers(cms) {
            defer { OPENSSL_sk_free(signers) }
            if OPENSSL_sk_num(signers) > 0 { signer = Certificate(retaining: OpaquePointer(OPENSSL_sk_value(signers, 0))) }
        }
        if signer == nil {
            for k in 0..<OPENSSL_sk_num(certificates) {
                let certificate = OpaquePointer(OPENSSL_sk_value(certificates, k))
                if CMS_SignerInfo_cert_cmp(OpaquePointer(signerInfo), certificate) == 0 { signer = Certificate(retaining: certificate) }
            }
        }
        if ok == 1, let signer { return .valid(signer: signer, note: nil, signingTime: signingTime(OpaquePointer(signerInfo))) }
        if signer == nil && reason.contains("signer certificate not found") {
            // Issuers that write the SignerInfo's issuer name encoded otherwise than in their own
            // certificate (a Malaysian passport of ../shared/testdata/emrtd): the carried
            // certificate of the same serial number, if its key verifies the signature over the
            // signed attributes and the messageDigest is the eContent's hash.
            var keyID: UnsafeMutablePointer<ASN1_OCTET_STRING>?, issuer: OpaquePointer?, serial: UnsafeMutablePointer<ASN1_INTEGER>?
            guard CMS_SignerInfo_get0_signer_id(OpaquePointer(signerInfo), &keyID, &issuer, &serial) == 1, let serial else { return .noSignerCertificate }
            for k in 0..<OPENSSL_sk_num(certificates) {
                let certificate = OpaquePointer(OPENSSL_sk_value(certificates, k))
                guard ASN1_INTEGER_cmp(serial, X509_get0_serialNumber(certificate)) == 0 else { continue }
                CMS_SignerInfo_set1_signer_cert(OpaquePointer(signerInfo), certificate)
                let fields = Certificate(retaining: certificate)
                ERR_clear_error()
                guard CMS_SignerInfo_verify(OpaquePointer(signerInfo)) == 1 else {
                    return .invalid(reason: errorReason(), signer: fields)
                }
                // The content through the digest BIOs CMS_dataInit chains (as CMS_verify does),
                // then the messageDigest attribute compared with their digest.
                var matches = false
                if let chain = CMS_dataInit(cms, nil) {
                    _ = readAll(chain)
                    matches = CMS_SignerInfo_verify_content(OpaquePointer(signerInfo), chain) == 1
                    BIO_free_all(chain)
                }
                return matches ? .valid(signer: fields, note: "the SignerInfo names its certificate by an issuer encoded otherwise than the certificate's; matched by serial number",
                                        signingTime: signingTime(OpaquePointer(signerInfo)))
                    : .invalid(reason: "the messageDigest attribute is not the hash of the eContent", signer: fields)
            }
            return .noSignerCertificate
        }
        return .invalid(reason: reason, signer: signer)
    }

    /// The signingTime signed attribute (RFC 5652 §11.3) as YYYY-MM-DD, when the signer put one.
    static func signingTime(_ signerInfo: OpaquePointer?) -> String? {
        // The attribute's value is a UTCTime (before 2050) or a GeneralizedTime; asked by its type,
        // OpenSSL returns the ASN1_STRING itself (an ASN1_TIME).
        guard let object = OBJ_nid2obj(NID_pkcs9_signingTime) else { return nil }
        ERR_clear_error()
        guard let value = CMS_signed_get0_data_by_OBJ(signerInfo, object, -3, V_ASN1_UTCTIME)
                ?? CMS_signed_get0_data_by_OBJ(signerInfo, object, -3, V_ASN1_GENERALIZEDTIME) else { ERR_clear_error(); return nil }
        var parts = tm()
        guard ASN1_TIME_to_tm(value.assumingMemoryBound(to: ASN1_TIME.self), &parts) == 1 else { return nil }
        return String(format: "%04d-%02d-%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
    }

    /// Subject, issuer (RFC 2253 strings), serial (hex) and validity (YYYY-MM-DD) of a certificate.
    static func fields(of certificate: OpaquePointer?) -> CertificateFields {
        func name(_ n: OpaquePointer?) -> String {
            guard let bio = BIO_new(BIO_s_mem()) else { return "" }
            defer { BIO_free(bio) }
            X509_NAME_print_ex(bio, n, 0, idkit_xn_flag_rfc2253)
            return readAll(bio)
        }
        func date(_ t: UnsafePointer<ASN1_TIME>?) -> String? {
            var parts = tm()
            guard let t, ASN1_TIME_to_tm(t, &parts) == 1 else { return nil }
            return String(format: "%04d-%02d-%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
        }
        var serial = ""
        if let number = ASN1_INTEGER_to_BN(X509_get0_serialNumber(certificate), nil) {
            if let hex = BN_bn2hex(number) {
                serial = String(cString: hex)
                CRYPTO_free(hex, #file, #line)
            }
            BN_free(number)
        }
        var der: [UInt8] = []
        let length = i2d_X509(certificate, nil)
        if length > 0 {
            der = [UInt8](repeating: 0, count: Int(length))
            der.withUnsafeMutableBufferPointer { buffer in
                var p = buffer.baseAddress
                _ = i2d_X509(certificate, &p)
            }
        }
        return CertificateFields(subject: name(X509_get_subject_name(certificate)), issuer: name(X509_get_issuer_name(certificate)),
                                 serialNumber: serial, notBefore: date(X509_get0_notBefore(certificate)),
                                 notAfter: date(X509_get0_notAfter(certificate)), der: der)
    }

    static func readAll(_ bio: OpaquePointer?) -> String {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 512)
        while true {
            let n = chunk.withUnsafeMutableBytes { BIO_read(bio, $0.baseAddress, Int32($0.count)) }
            if n <= 0 { break }
            out += chunk.prefix(Int(n))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// OpenSSL's reason for the last failure (its error queue), or "no reason given".
    static func errorReason() -> String {
        let code = ERR_get_error()
        guard code != 0 else { return "no reason given" }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        ERR_clear_error()
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

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

extension LibCrypto {
    /// A SubjectPublicKeyInfo (EF.DG15's content) read by OpenSSL: its algorithm and size.
    struct PublicKeyInfo {
        var algorithm: String     // "RSA", "EC"
        var bits: Int
        var curve: String?        // a named curve's short name; nil for explicit parameters
    }

    static func publicKey(_ der: [UInt8]) -> OpaquePointer? {
        der.withUnsafeBufferPointer { buffer in
            var p = buffer.baseAddress
            return d2i_PUBKEY(nil, &p, buffer.count)
        }
    }

    static func describe(publicKey der: [UInt8]) -> PublicKeyInfo? {
        guard let key = publicKey(der) else { return nil }
        defer { EVP_PKEY_free(key) }
        let bits = Int(EVP_PKEY_get_bits(key))
        if EVP_PKEY_is_a(key, "RSA") == 1 { return PublicKeyInfo(algorithm: "RSA", bits: bits, curve: nil) }
        if EVP_PKEY_is_a(key, "EC") == 1 {
            var name = [CChar](repeating: 0, count: 80)
            var length = 0
            let named = EVP_PKEY_get_utf8_string_param(key, "group", &name, name.count, &length) == 1
            return PublicKeyInfo(algorithm: "EC", bits: bits, curve: named ? String(cString: name) : nil)
        }
        return PublicKeyInfo(algorithm: "other", bits: bits, curve: nil)
    }

    /// RSA's public operation without padding (s^e mod n), as many bytes as the modulus: the
    /// message-recovery step of ISO/IEC 9796-2.
    static func rsaRecover(publicKey der: [UInt8], _ signature: [UInt8]) -> [UInt8]? {
        guard let key = publicKey(der), EVP_PKEY_is_a(key, "RSA") == 1 else { return nil }
        defer { EVP_PKEY_free(key) }
        guard let ctx = EVP_PKEY_CTX_new(key, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(ctx) }
        guard EVP_PKEY_verify_recover_init(ctx) == 1, EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_NO_PADDING) == 1 else { return nil }
        var out = [UInt8](repeating: 0, count: Int(EVP_PKEY_get_size(key)))
        var length = out.count
        let ok = signature.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { EVP_PKEY_verify_recover(ctx, $0.baseAddress, &length, s.baseAddress, s.count) }
        }
        ERR_clear_error()
        return ok == 1 ? Array(out.prefix(length)) : nil
    }

    /// An ECDSA signature in the plain format of BSI TR-03111 (r ‖ s, each as long as the order)
    /// verified over `message` with `digest` (an OpenSSL name: "SHA2-256").
    static func verifyPlainECDSA(publicKey der: [UInt8], digest: String, message: [UInt8], signature: [UInt8]) -> Bool {
        guard signature.count % 2 == 0, !signature.isEmpty, let key = publicKey(der), EVP_PKEY_is_a(key, "EC") == 1 else { return false }
        defer { EVP_PKEY_free(key) }
        let half = signature.count / 2
        guard let sig = ECDSA_SIG_new() else { return false }
        defer { ECDSA_SIG_free(sig) }
        let r = signature.prefix(half).withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32(half), nil) }
        let s = signature.suffix(half).withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32(half), nil) }
        guard let r, let s, ECDSA_SIG_set0(sig, r, s) == 1 else { BN_free(r); BN_free(s); return false }
        var derSignature: UnsafeMutablePointer<UInt8>?
        let length = i2d_ECDSA_SIG(sig, &derSignature)
        guard length > 0, let derSignature else { return false }
        defer { CRYPTO_free(derSignature, #file, #line) }
        guard let md = EVP_MD_fetch(nil, digest, nil), let ctx = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_free(md); EVP_MD_CTX_free(ctx) }
        let ok = message.withUnsafeBufferPointer { m in
            EVP_DigestVerifyInit(ctx, nil, md, nil, key) == 1 && EVP_DigestVerify(ctx, derSignature, Int(length), m.baseAddress, m.count) == 1
        }
        ERR_clear_error()
        return ok
    }
}

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
