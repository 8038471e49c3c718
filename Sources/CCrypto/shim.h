// OpenSSL's libcrypto (libssl-dev), through its EVP interface only: SHA-1 and SHA-256 digests and
// the two-key triple-DES ciphers that ICAO 9303-11 uses for BAC. The low-level DES_* and SHA1_*
// functions are deprecated in OpenSSL 3, and single DES lives in the legacy provider, which a
// default installation does not load; single DES is therefore run as two-key 3DES with Ka = Kb.
#include <openssl/evp.h>
#include <openssl/err.h>
