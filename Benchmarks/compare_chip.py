#!/usr/bin/env python3
"""Passive authentication with PyPI's asn1crypto and cryptography, beside `idkit-bench chip`, on the
issued documents of ../shared/testdata/emrtd/real-documents (issue 17).

    make bench-chip      (or: pip install asn1crypto cryptography && python3 Benchmarks/compare_chip.py)

What a Python backend would write: the SOD's CMS read by asn1crypto, the LDSSecurityObject by a
small asn1crypto spec, data groups hashed with hashlib, the messageDigest attribute compared, the
signature over the signed attributes and the Document Signer's signature by the CSCA verified by
cryptography. Prints each document's outcome (and what cryptography refuses), then verifications
per second and the median milliseconds, to compare with IDKit's figures printed before it.
"""
import hashlib
import pathlib
import statistics
import sys
import time

try:
    from asn1crypto import cms, core
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
except ImportError:
    sys.exit("compare_chip: needs asn1crypto and cryptography: python3 -m pip install asn1crypto cryptography")

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = ROOT.parent / "shared/testdata/emrtd/real-documents"


class DataGroupHash(core.Sequence):
    _fields = [("number", core.Integer), ("hash", core.OctetString)]


class LDSSecurityObject(core.Sequence):
    _fields = [("version", core.Integer), ("algorithm", cms.DigestAlgorithm),
               ("hashes", core.SequenceOf, {"spec": DataGroupHash}), ("versionInfo", core.Any, {"optional": True})]


HASHES = {"sha1": hashes.SHA1, "sha224": hashes.SHA224, "sha256": hashes.SHA256, "sha384": hashes.SHA384, "sha512": hashes.SHA512}


def verify(public_key, signature, data, algorithm, hash_name):
    h = HASHES[hash_name]()
    if isinstance(public_key, rsa.RSAPublicKey):
        if algorithm["algorithm"].native == "rsassa_pss":
            params = algorithm["parameters"]
            pss = padding.PSS(mgf=padding.MGF1(HASHES[params["mask_gen_algorithm"]["parameters"]["algorithm"].native]()),
                              salt_length=params["salt_length"].native)
            public_key.verify(signature, data, pss, HASHES[params["hash_algorithm"]["algorithm"].native]())
        else:
            public_key.verify(signature, data, padding.PKCS1v15(), h)
    else:
        public_key.verify(signature, data, ec.ECDSA(h))


def passive_authentication(folder: pathlib.Path, csca_paths):
    sod = (folder / "EF_SOD.bin").read_bytes()
    content = core.Asn1Value.load(sod).contents                      # inside the 77 wrapper
    signed = cms.ContentInfo.load(content)["content"]
    econtent = signed["encap_content_info"]["content"].parsed if signed["encap_content_info"]["content"].parsed is not None else None
    raw = signed["encap_content_info"]["content"].native
    lds = LDSSecurityObject.load(raw if isinstance(raw, bytes) else econtent.dump())
    hash_name = lds["algorithm"]["algorithm"].native
    listed = {h["number"].native: h["hash"].native for h in lds["hashes"]}
    for dg in folder.glob("EF_DG*.bin"):
        number = int(dg.name[5:-4])
        if number in listed and hashlib.new(hash_name, dg.read_bytes()).digest() != listed[number]:
            return "failed (DG hash)"
    signer = signed["signer_infos"][0]
    serial = signer["sid"].chosen["serial_number"].native
    certificate = next(c.chosen for c in signed["certificates"] if c.chosen.serial_number == serial)
    ds = x509.load_der_x509_certificate(certificate.dump())
    attrs = signer["signed_attrs"]
    digest_name = signer["digest_algorithm"]["algorithm"].native
    digest = next(a["values"][0].native for a in attrs if a["type"].native == "message_digest")
    if digest != hashlib.new(digest_name, raw if isinstance(raw, bytes) else econtent.dump()).digest():
        return "failed (messageDigest)"
    verify(ds.public_key(), signer["signature"].native, b"\x31" + attrs.dump()[1:], signer["signature_algorithm"], digest_name)
    for path in csca_paths:
        csca = x509.load_der_x509_certificate(path.read_bytes())
        if csca.subject != ds.issuer:
            continue
        try:
            ds.verify_directly_issued_by(csca)
            return "passed"
        except Exception:
            continue
    return "incomplete (no CSCA verifies the DS)"


def main():
    if not DOCS.is_dir():
        sys.exit(f"compare_chip: {DOCS} is absent")
    folders = sorted(p for p in DOCS.iterdir() if (p / "EF_SOD.bin").exists())
    cases = []
    for folder in folders:
        trusted = DOCS / "NZ" if folder.name == "NZ-2011" else folder
        cases.append((folder, sorted(trusted.glob("*.der")) + sorted(trusted.glob("*.cer"))))
    outcomes, times = {}, []
    rounds = 20
    for r in range(rounds):
        for folder, cscas in cases:
            t = time.perf_counter()
            try:
                outcome = passive_authentication(folder, cscas)
            except Exception as error:      # what the libraries refuse
                outcome = f"error: {type(error).__name__}: {str(error)[:70]}"
            times.append((time.perf_counter() - t) * 1000)
            if r == 0:
                outcomes[folder.name] = outcome
    for name, outcome in outcomes.items():
        print(f"  {name:8s} {outcome}")
    counts = {}
    for o in outcomes.values():
        key = o.split(" ")[0].rstrip(":")
        counts[key] = counts.get(key, 0) + 1
    print("outcomes                         " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    total = sum(times) / 1000
    print(f"verifications per second         {len(times) / total:.0f}   (asn1crypto + cryptography, one core)")
    times.sort()
    print(f"median / p90 ms per document     {statistics.median(times):.3f} / {times[len(times) * 9 // 10]:.3f}")


if __name__ == "__main__":
    main()
