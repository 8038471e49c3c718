internal import CCrypto
import Foundation

// Active authentication's public key (EF.DG15) and the signatures checked with it (ISO/IEC 9796-2, BSI TR-03111).
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
