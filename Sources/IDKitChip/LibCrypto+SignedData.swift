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
