internal import CCrypto

/// The one place IDKit calls OpenSSL's libcrypto: digests and the DES ciphers of ICAO 9303-11.
/// Nothing here is a hand-made primitive; every byte of SHA and DES comes from libcrypto.
enum LibCrypto {
    enum Digest { case sha1, sha256 }

    // Fetched once: OpenSSL 3 looks an algorithm up in its provider on every use of EVP_sha1() and
    // friends, which costs more than hashing 24 bytes. Fetched objects are immutable and may be
    // shared between threads (OpenSSL's "Algorithm fetching" guide).
    nonisolated(unsafe) static let sha1 = EVP_MD_fetch(nil, "SHA1", nil)
    nonisolated(unsafe) static let sha256 = EVP_MD_fetch(nil, "SHA2-256", nil)
    nonisolated(unsafe) static let tdesCBC = EVP_CIPHER_fetch(nil, "DES-EDE-CBC", nil)

    static func digest(_ kind: Digest, _ data: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: kind == .sha1 ? 20 : 32)
        var length: UInt32 = 0
        let md = kind == .sha1 ? Self.sha1 : Self.sha256
        let ok = data.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, md, nil)
            }
        }
        // EVP_Digest with a built-in digest fails only when memory runs out.
        precondition(ok == 1 && Int(length) == out.count, "libcrypto: EVP_Digest failed")
        return out
    }

    enum Cipher {
        /// Two-key triple DES (K1 ‖ K2, 16 bytes), CBC, no padding.
        case tdesCBC
    }

    /// Encrypts or decrypts whole 8-byte blocks with a zero IV unless `iv` is given.
    static func crypt(_ cipher: Cipher, key: [UInt8], iv: [UInt8] = [UInt8](repeating: 0, count: 8),
                      _ data: [UInt8], encrypt: Bool) throws(ChipError) -> [UInt8] {
        precondition(key.count == 16 && iv.count == 8 && data.count % 8 == 0)
        guard let ctx = EVP_CIPHER_CTX_new() else { throw failure("EVP_CIPHER_CTX_new") }
        defer { EVP_CIPHER_CTX_free(ctx) }
        var out = [UInt8](repeating: 0, count: data.count + 8)
        var written: Int32 = 0, final: Int32 = 0
        let ok = key.withUnsafeBufferPointer { k in
            iv.withUnsafeBufferPointer { v in
                data.withUnsafeBufferPointer { input in
                    out.withUnsafeMutableBufferPointer { output -> Bool in
                        guard EVP_CipherInit_ex(ctx, Self.tdesCBC, nil, k.baseAddress, v.baseAddress,
                                                encrypt ? 1 : 0) == 1,
                              EVP_CIPHER_CTX_set_padding(ctx, 0) == 1,
                              EVP_CipherUpdate(ctx, output.baseAddress, &written, input.baseAddress,
                                               Int32(input.count)) == 1,
                              EVP_CipherFinal_ex(ctx, output.baseAddress! + Int(written), &final) == 1
                        else { return false }
                        return true
                    }
                }
            }
        }
        guard ok else { throw failure("3DES-CBC") }
        return Array(out.prefix(Int(written + final)))
    }

    private static func failure(_ what: String) -> ChipError {
        let code = ERR_get_error()
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        let reason = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return ChipError(.cryptoFailure, "libcrypto refused \(what): \(reason)")
    }
}
