internal import CCrypto

/// The one place IDKit calls OpenSSL's libcrypto: digests and the DES ciphers of ICAO 9303-11.
/// Nothing here is a hand-made primitive; every byte of SHA and DES comes from libcrypto.
enum LibCrypto {
    enum Digest { case sha1, sha256 }

    nonisolated(unsafe) static let tdesCBC = EVP_CIPHER_fetch(nil, "DES-EDE-CBC", nil)

    /// SHA-1 or SHA-256 (the key derivations of 9303-11), through ``digest(named:_:)``.
    static func digest(_ kind: Digest, _ data: [UInt8]) -> [UInt8] {
        // EVP_Digest with a built-in, already fetched digest fails only when memory runs out.
        guard let out = digest(named: kind == .sha1 ? "SHA1" : "SHA2-256", data[...]) else { preconditionFailure("libcrypto: EVP_Digest failed") }
        return out
    }

    enum Cipher {
        /// Two-key triple DES (K1 ‖ K2, 16 bytes), CBC, no padding.
        case tdesCBC
        /// AES-128, -192 or -256 (by the key's length), CBC, no padding; ECB for one block (an IV of zeros).
        case aesCBC
    }

    nonisolated(unsafe) static let aes128CBC = EVP_CIPHER_fetch(nil, "AES-128-CBC", nil)
    nonisolated(unsafe) static let aes192CBC = EVP_CIPHER_fetch(nil, "AES-192-CBC", nil)
    nonisolated(unsafe) static let aes256CBC = EVP_CIPHER_fetch(nil, "AES-256-CBC", nil)

    /// AES-CMAC (NIST SP 800-38B) of `data` under `key` (16, 24 or 32 bytes), libcrypto's EVP_MAC.
    static func aesCMAC(key: [UInt8], _ data: [UInt8]) throws(ChipError) -> [UInt8] {
        guard let mac = EVP_MAC_fetch(nil, "CMAC", nil) else { throw failure("EVP_MAC_fetch CMAC") }
        defer { EVP_MAC_free(mac) }
        guard let ctx = EVP_MAC_CTX_new(mac) else { throw failure("EVP_MAC_CTX_new") }
        defer { EVP_MAC_CTX_free(ctx) }
        let name = key.count == 16 ? "AES-128-CBC" : (key.count == 24 ? "AES-192-CBC" : "AES-256-CBC")
        var out = [UInt8](repeating: 0, count: 16)
        var length = 0
        // An OSSL_PARAM keeps the pointer to its key: a static string's, not the temporary C string
        // Swift makes of a literal for one call (AddressSanitizer caught that use after free).
        let parameter: StaticString = "cipher"
        let keyName = UnsafeRawPointer(parameter.utf8Start).assumingMemoryBound(to: CChar.self)
        let ok = name.withCString { cipher -> Bool in
            var params = [OSSL_PARAM_construct_utf8_string(keyName, UnsafeMutablePointer(mutating: cipher), 0), OSSL_PARAM_construct_end()]
            return key.withUnsafeBufferPointer { k in
                data.withUnsafeBufferPointer { d in
                    out.withUnsafeMutableBufferPointer { o in
                        EVP_MAC_init(ctx, k.baseAddress, k.count, &params) == 1 && EVP_MAC_update(ctx, d.baseAddress, d.count) == 1
                            && EVP_MAC_final(ctx, o.baseAddress, &length, o.count) == 1
                    }
                }
            }
        }
        guard ok, length == 16 else { throw failure("AES-CMAC") }
        return out
    }

    /// Encrypts or decrypts whole 8-byte blocks with a zero IV unless `iv` is given.
    static func crypt(_ cipher: Cipher, key: [UInt8], iv: [UInt8]? = nil,
                      _ data: [UInt8], encrypt: Bool) throws(ChipError) -> [UInt8] {
        let block = cipher == .tdesCBC ? 8 : 16
        let iv = iv ?? [UInt8](repeating: 0, count: block)
        precondition((cipher == .tdesCBC ? key.count == 16 : [16, 24, 32].contains(key.count)) && iv.count == block && data.count % block == 0)
        let algorithm = cipher == .tdesCBC ? Self.tdesCBC : (key.count == 16 ? Self.aes128CBC : (key.count == 24 ? Self.aes192CBC : Self.aes256CBC))
        guard let ctx = EVP_CIPHER_CTX_new() else { throw failure("EVP_CIPHER_CTX_new") }
        defer { EVP_CIPHER_CTX_free(ctx) }
        var out = [UInt8](repeating: 0, count: data.count + block)
        var written: Int32 = 0, final: Int32 = 0
        let ok = key.withUnsafeBufferPointer { k in
            iv.withUnsafeBufferPointer { v in
                data.withUnsafeBufferPointer { input in
                    out.withUnsafeMutableBufferPointer { output -> Bool in
                        guard EVP_CipherInit_ex(ctx, algorithm, nil, k.baseAddress, v.baseAddress,
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
        guard ok else { throw failure(cipher == .tdesCBC ? "3DES-CBC" : "AES-CBC") }
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
