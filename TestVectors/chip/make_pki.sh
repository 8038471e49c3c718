#!/usr/bin/env bash
# IDKit's own test PKI for passive authentication (issue 17), made with the `openssl` command:
# two CSCAs (RSA-2048; EC brainpoolP256r1 with explicit curve parameters, as many CSCAs have),
# Document Signers under them, data groups (EF.DG1 with the ICAO 9303-3 specimen MRZ, EF.DG15 with
# an RSA key), and EF.SODs over them in every signature and hash algorithm ICAO 9303-12 names, plus
# damaged ones (a revoked DS among them). Nothing here is committed output: PassiveAuthenticationPKITests runs this into a
# temporary folder each time (random keys; the outcomes do not depend on them).
#
#   TestVectors/chip/make_pki.sh OUT_DIR
#
# OUT_DIR/csca/           the trusted CSCAs (PEM); OUT_DIR/crl/ the RSA CSCA's CRL (ds-revoked revoked)
# OUT_DIR/EF_DG1.bin, EF_DG15.bin, EF_DG1-changed.bin; EF_DG2.bin (the 48×30 JPEG 2000 of
#                         TestVectors/images/formats/tiny-lossless.jp2 as an ISO/IEC 19794-5 face),
#                         EF_DG11.bin and EF_DG12.bin (the specimen holder's details, laid out as
#                         ICAO 9303-10 Appendix A5 lays out its example), for the document merge
# OUT_DIR/sod/NAME.bin    one EF.SOD per case; OUT_DIR/cases.tsv: NAME, data groups, expected result
set -euo pipefail
out=${1:?usage: make_pki.sh OUT_DIR}
face=$(cd "$(dirname "$0")/../images/formats" && pwd)/tiny-lossless.jp2
mkdir -p "$out/csca" "$out/crl" "$out/sod" "$out/work"
out=$(cd "$out" && pwd)
cd "$out/work"
q() { "$@" >/dev/null 2>&1 || { echo "make_pki.sh: failed: $*" >&2; "$@"; exit 1; }; }
# tlv TAG IN OUT: IN's bytes wrapped in a BER-TLV with the one-byte tag TAG (hex), definite length.
tlv() {
    python3 - "$1" "$2" "$3" <<'PY'
import sys
tag, body = int(sys.argv[1], 16), open(sys.argv[2], "rb").read()
n = len(body)
length = bytes([n]) if n < 0x80 else (bytes([0x81, n]) if n < 0x100 else bytes([0x82, n >> 8, n & 0xFF]))
open(sys.argv[3], "wb").write(bytes([tag]) + length + body)
PY
}

# --- CSCAs and Document Signers -------------------------------------------------------------
cat > ca.cnf <<'EOF'
[ca]
default_ca = ca
[ca]
database = index.txt
serial = serial
crlnumber = crlnumber
default_crl_days = 30
new_certs_dir = .
default_md = sha256
policy = any
unique_subject = no
copy_extensions = none
[any]
countryName = supplied
commonName = supplied
[csca_ext]
basicConstraints = critical, CA:true, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[ds_ext]
keyUsage = critical, digitalSignature
authorityKeyIdentifier = keyid
subjectKeyIdentifier = hash
EOF
: > index.txt
echo 1000 > serial
echo 01 > crlnumber

q openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out csca-rsa.key
q openssl req -new -x509 -key csca-rsa.key -subj "/C=UT/CN=IDKit Test CSCA RSA" -days 7300 -sha256 \
    -addext "basicConstraints=critical,CA:true,pathlen:0" -addext "keyUsage=critical,keyCertSign,cRLSign" -out csca-rsa.pem
q openssl ecparam -name brainpoolP256r1 -param_enc explicit -genkey -noout -out csca-ec.key
q openssl req -new -x509 -key csca-ec.key -subj "/C=UT/CN=IDKit Test CSCA EC" -days 7300 -sha256 \
    -addext "basicConstraints=critical,CA:true,pathlen:0" -addext "keyUsage=critical,keyCertSign,cRLSign" -out csca-ec.pem
# A CSCA nobody trusts (its Document Signer must not chain).
q openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out csca-other.key
q openssl req -new -x509 -key csca-other.key -subj "/C=UT/CN=IDKit Test CSCA RSA" -days 7300 -sha256 \
    -addext "basicConstraints=critical,CA:true,pathlen:0" -out csca-other.pem
cp csca-rsa.pem csca-ec.pem "$out/csca/"

# ds NAME KEYSPEC CA [STARTDATE ENDDATE]
ds() {
    local name=$1 spec=$2 ca=$3
    case $spec in
        rsa) q openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$name.key" ;;
        p256) q openssl ecparam -name prime256v1 -genkey -noout -out "$name.key" ;;
        bp384) q openssl ecparam -name brainpoolP384r1 -genkey -noout -out "$name.key" ;;
    esac
    q openssl req -new -key "$name.key" -subj "/C=UT/CN=IDKit Test DS $name" -out "$name.csr"
    local dates=(-days 3650)
    [ $# -ge 5 ] && dates=(-startdate "$4" -enddate "$5")
    q openssl ca -batch -config ca.cnf -cert "$ca.pem" -keyfile "$ca.key" -extensions ds_ext "${dates[@]}" -in "$name.csr" -out "$name.pem" -notext
}
ds ds-rsa rsa csca-rsa
ds ds-p256 p256 csca-rsa
ds ds-bp384 bp384 csca-ec
ds ds-expired rsa csca-rsa 20100101000000Z 20110101000000Z
ds ds-other rsa csca-other
ds ds-revoked rsa csca-rsa
# The RSA CSCA revokes ds-revoked and publishes its CRL.
q openssl ca -batch -config ca.cnf -cert csca-rsa.pem -keyfile csca-rsa.key -revoke ds-revoked.pem
q openssl ca -batch -config ca.cnf -cert csca-rsa.pem -keyfile csca-rsa.key -gencrl -out "$out/crl/csca-rsa.crl"

# --- Data groups ----------------------------------------------------------------------------
mrz='P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<L898902C36UTO7408122F1204159ZE184226B<<<<<10'
printf '\x61\x5B\x5F\x1F\x58%s' "$mrz" > "$out/EF_DG1.bin"
printf '\x61\x5B\x5F\x1F\x58%s' "${mrz/ANNA/ANNE}" > "$out/EF_DG1-changed.bin"
q openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 -out aa.key
q openssl pkey -in aa.key -pubout -outform DER -out aa.der
tlv 6F aa.der "$out/EF_DG15.bin"
# EF.DG2 (9303-10 §4.7.2): 75 { 7F61 { 02 count, 7F60 { A1 header, 5F2E ISO/IEC 19794-5 record } } };
# EF.DG11 and EF.DG12 (§4.7.11–12): a tag list 5C, then the elements as text.
python3 - "$out" "$face" <<'PY'
import sys, struct
out, face = sys.argv[1], open(sys.argv[2], "rb").read()
def tlv(tag, body):
    n = len(body)
    length = bytes([n]) if n < 0x80 else (bytes([0x81, n]) if n < 0x100 else bytes([0x82, n >> 8, n & 0xFF]))
    return tag + length + body
# 19794-5:2005: "FAC\0", "010\0", record length, 1 face; the facial header (20 bytes, no feature
# points), the image information (12 bytes: full frontal, data type 1 = JPEG 2000, 48 x 30), the image.
info = bytes([1, 1]) + struct.pack(">HH", 48, 30) + bytes([1, 2]) + bytes(4)
block = struct.pack(">IH", 20 + 12 + len(face), 0) + bytes(14) + info + face
record = b"FAC\0" + b"010\0" + struct.pack(">IH", 14 + len(block), 1) + block
header = tlv(b"\xA1", tlv(b"\x80", b"\x01\x01") + tlv(b"\x87", b"\x01\x01"))
dg2 = tlv(b"\x75", tlv(b"\x7F\x61", tlv(b"\x02", b"\x01") + tlv(b"\x7F\x60", header + tlv(b"\x5F\x2E", record))))
open(out + "/EF_DG2.bin", "wb").write(dg2)
dg11 = [(b"\x5F\x0E", b"ERIKSSON<<ANNA<MARIA"), (b"\x5F\x10", b"ZE184226B"), (b"\x5F\x2B", b"19740812"),
        (b"\x5F\x11", b"ZENITH<UTO"), (b"\x5F\x42", b"12 MAIN STREET<ZENITH<UTO")]
dg12 = [(b"\x5F\x19", b"PASSPORT OFFICE ZENITH"), (b"\x5F\x26", b"20020416")]
for name, tag, elements in (("EF_DG11.bin", b"\x6B", dg11), ("EF_DG12.bin", b"\x6C", dg12)):
    body = tlv(b"\x5C", b"".join(t for t, _ in elements)) + b"".join(tlv(t, v) for t, v in elements)
    open(out + "/" + name, "wb").write(tlv(tag, body))
PY

# --- EF.SODs ----------------------------------------------------------------------------------
# lds HASH DG… : the LDSSecurityObject (DER, by openssl asn1parse -genconf) over the named files.
lds() {
    local hash=$1; shift
    { echo "asn1=SEQUENCE:lds"; echo "[lds]"; echo "version=INT:0"; echo "alg=SEQUENCE:alg"; echo "hashes=SEQUENCE:hashes"
      echo "[alg]"; echo "oid=OID:$hash"; echo "[hashes]"
      for dg in "$@"; do echo "dg${dg%%:*}=SEQUENCE:dg${dg%%:*}"; done
      for dg in "$@"; do
          local n=${dg%%:*} file=${dg#*:}
          echo "[dg$n]"; echo "n=INT:$n"
          echo "h=FORMAT:HEX,OCT:$(openssl dgst -"$hash" -binary "$file" | od -An -tx1 | tr -d ' \n')"
      done; } > lds.cnf
    q openssl asn1parse -genconf lds.cnf -out lds.der
}
# sod NAME DS HASH [KEYOPT] : the SignedData of lds.der wrapped in 77.
sod() {
    local name=$1 signer=$2 hash=$3 keyopt=()
    [ $# -ge 4 ] && keyopt=(-keyopt "$4")
    q openssl cms -sign -binary -nodetach -in lds.der -econtent_type 2.23.136.1.1.1 -signer "$signer.pem" -inkey "$signer.key" \
        -md "$hash" -nosmimecap "${keyopt[@]}" -outform DER -out cms.der
    tlv 77 cms.der "$out/sod/$name.bin"
}

dg1="1:$out/EF_DG1.bin"; dg15="15:$out/EF_DG15.bin"
: > "$out/cases.tsv"
case_() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >> "$out/cases.tsv"; }

lds sha256 "$dg1" "$dg15"
sod rsa-pkcs1-sha256 ds-rsa sha256;                         case_ rsa-pkcs1-sha256 1,15 passed
sod rsa-pss-sha256 ds-rsa sha256 rsa_padding_mode:pss;      case_ rsa-pss-sha256 1,15 passed
sod ecdsa-p256-sha256 ds-p256 sha256;                       case_ ecdsa-p256-sha256 1,15 passed
sod expired-ds ds-expired sha256;                           case_ expired-ds 1,15 failed
sod other-csca ds-other sha256;                             case_ other-csca 1,15 incomplete
sod revoked-ds ds-revoked sha256;                           case_ revoked-ds 1,15 failed
cp "$out/sod/rsa-pkcs1-sha256.bin" "$out/sod/changed-dg1.bin"; case_ changed-dg1 1-changed,15 failed
lds sha1 "$dg1" "$dg15";     sod rsa-pkcs1-sha1 ds-rsa sha1;        case_ rsa-pkcs1-sha1 1,15 passed
lds sha224 "$dg1" "$dg15";   sod ecdsa-bp384-sha224 ds-bp384 sha224; case_ ecdsa-bp384-sha224 1,15 passed
lds sha384 "$dg1" "$dg15";   sod ecdsa-bp384-sha384 ds-bp384 sha384; case_ ecdsa-bp384-sha384 1,15 passed
lds sha512 "$dg1" "$dg15";   sod rsa-pss-sha512 ds-rsa sha512 rsa_padding_mode:pss; case_ rsa-pss-sha512 1,15 passed
# A whole document (DG1, DG2, DG11, DG12, DG15) for the merge with the chip as a source.
lds sha256 "$dg1" "2:$out/EF_DG2.bin" "11:$out/EF_DG11.bin" "12:$out/EF_DG12.bin" "$dg15"
sod document ds-rsa sha256;                                 case_ document 1,2,11,12,15 passed
# A SOD that lists DG2, which is not sent: incomplete, never passed.
printf '\x75\x03\x7F\x61\x00' > dg2.bin
lds sha256 "$dg1" "2:dg2.bin" "$dg15"; sod claims-dg2 ds-rsa sha256; case_ claims-dg2 1,15 passed-with-dg2-not-given
# The signature's last byte changed, and a SOD cut short.
python3 - "$out/sod" <<'PY'
import sys, os
d = sys.argv[1]
b = bytearray(open(os.path.join(d, "rsa-pkcs1-sha256.bin"), "rb").read())
b[-1] ^= 0x01
open(os.path.join(d, "wrong-signature.bin"), "wb").write(b)
open(os.path.join(d, "truncated.bin"), "wb").write(bytes(b[: len(b) // 2]))
PY
case_ wrong-signature 1,15 failed
case_ truncated 1,15 failed
rm -rf "$out/work"
