// OpenSSL's libcrypto (libssl-dev), through its EVP interface only: SHA-1 and SHA-256 digests and
// the two-key triple-DES ciphers that ICAO 9303-11 uses for BAC. The low-level DES_* and SHA1_*
// functions are deprecated in OpenSSL 3, and single DES lives in the legacy provider, which a
// default installation does not load; single DES is therefore run as two-key 3DES with Ka = Kb.
#include <openssl/evp.h>
#include <openssl/err.h>
// Passive authentication (ICAO 9303-11 §5.1): EF.SOD's CMS SignedData verified with the Document
// Signer certificate it carries, and that certificate's fields.
#include <openssl/cms.h>
#include <openssl/x509.h>
#include <openssl/bio.h>
#include <openssl/asn1.h>
#include <openssl/pem.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/rsa.h>
#include <openssl/ec.h>
#include <openssl/bn.h>
// XN_FLAG_RFC2253 is a macro of macros that Swift does not import.
static const unsigned long idkit_xn_flag_rfc2253 = XN_FLAG_RFC2253;
