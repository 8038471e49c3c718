#!/usr/bin/env python3
"""Writes IDKit's own AAMVA payloads and the expected readings of all payloads.

generated/*.bin   one payload per AAMVA version 01-11 (DL and ID, US and Canadian issuers),
                  plus copies damaged the ways real cards and scanners damage them.
expected.json     for every generated payload: the values it was built from (ground truth) and
                  the warning codes its damage must raise; for every public payload in public/:
                  values read by the simple reference reading below (DAQ, DBB by the date rule,
                  the IIN's jurisdiction), written apart from the Swift parser.

Seeded (random.Random(20261129)): running it again writes the same bytes.
Layout per AAMVA DL/ID Card Design Standard Annex D (header D.12.3, subfile designators,
elements D.12.5); version 01 per AAMVA DL/ID-2000.
"""
import json, os, random, re

HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(20261129)

ISSUERS = [("636014", "CA", "USA"), ("636015", "TX", "USA"), ("636001", "NY", "USA"), ("636035", "IL", "USA"),
           ("636005", "SC", "USA"), ("636012", "ON", "CAN"), ("604432", "AB", "CAN"), ("636028", "BC", "CAN"),
           ("636000", "VA", "USA"), ("636045", "WA", "USA"), ("604428", "QC", "CAN")]
LAST = ["GARCIA", "NGUYEN", "O'BRIEN", "SMITH-JONES", "TREMBLAY", "KOWALSKI", "LEE", "MARTIN"]
FIRST = ["ANA", "JAMES", "LINDA", "MOHAMMED", "CHLOE", "PIERRE", "SAM", "YUKI"]
MIDDLE = ["MARIE", "", "LEE", "J", "ROSE ANN", ""]
CITIES = ["SACRAMENTO", "AUSTIN", "ALBANY", "CHICAGO", "COLUMBIA", "TORONTO", "CALGARY"]
EYES = ["BLU", "BRO", "GRN", "HAZ", "GRY"]
HAIR = ["BLK", "BRO", "BLN", "RED", "GRY"]


def date(rng, y0, y1):
    y = rng.randint(y0, y1); m = rng.randint(1, 12); d = rng.randint(1, 28)
    return (y, m, d)


def fmt(d, order):
    y, m, dd = d
    return f"{m:02d}{dd:02d}{y:04d}" if order == "US" else f"{y:04d}{m:02d}{dd:02d}"


def iso(d):
    return f"{d[0]:04d}-{d[1]:02d}-{d[2]:02d}"


def person(rng, version, iin, state, country, doc_type):
    last, first, middle = rng.choice(LAST), rng.choice(FIRST), rng.choice(MIDDLE)
    dob, issue = date(rng, 1940, 2006), date(rng, 2015, 2024)
    expiry = (issue[0] + rng.randint(4, 8), dob[1], dob[2])
    inches = rng.randint(58, 78)
    pounds = rng.randint(100, 260)
    number = "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(1)) + "".join(rng.choice("0123456789") for _ in range(8))
    sex = rng.choice(["1", "2"])
    return dict(last=last, first=first, middle=middle, dob=dob, issue=issue, expiry=expiry, inches=inches,
                pounds=pounds, number=number, sex=sex, eyes=rng.choice(EYES), hair=rng.choice(HAIR),
                street=f"{rng.randint(1, 9999)} {rng.choice(['MAIN', 'OAK', 'ELM', 'KING'])} ST",
                city=rng.choice(CITIES), state=state, postal=f"{rng.randint(10000, 99999)}0000" if country == "USA" else "M5V 2T6",
                discriminator="".join(rng.choice("0123456789ABCDEF") for _ in range(12)),
                icn="".join(rng.choice("0123456789") for _ in range(16)), version=version, iin=iin,
                country=country, doc_type=doc_type)


def elements_for(p):
    v = p["version"]
    order = "ISO" if (v <= 1 or p["country"] == "CAN") else "US"
    e = []
    if v <= 1:
        e += [("DAQ", p["number"]), ("DAA", f'{p["last"]},{p["first"]},{p["middle"]}'.rstrip(",")),
              ("DAG", p["street"]), ("DAI", p["city"]), ("DAJ", p["state"]), ("DAK", p["postal"].ljust(11)),
              ("DAR", "D   "), ("DAS", "          "), ("DAT", "     "),
              ("DAU", f'{p["inches"] // 12}{p["inches"] % 12:02d}'), ("DAW", f'{p["pounds"]:03d}'),
              ("DAY", p["eyes"]), ("DAZ", p["hair"]), ("DBA", fmt(p["expiry"], order)), ("DBB", fmt(p["dob"], order)),
              ("DBC", p["sex"]), ("DBD", fmt(p["issue"], order)), ("DBH", "N")]
        return e
    if p["doc_type"] == "DL":
        e += [("DCA", "C"), ("DCB", "NONE"), ("DCD", "NONE")]
    e += [("DBA", fmt(p["expiry"], order)), ("DCS", p["last"])]
    if v <= 3:
        e += [("DCT", f'{p["first"]},{p["middle"]}' if p["middle"] else p["first"])]
    else:
        e += [("DAC", p["first"]), ("DAD", p["middle"])]
    e += [("DBD", fmt(p["issue"], order)), ("DBB", fmt(p["dob"], order)), ("DBC", p["sex"]), ("DAY", p["eyes"])]
    if p["country"] == "CAN":
        e += [("DAU", f'{round(p["inches"] * 2.54):03d} CM')]
    else:
        e += [("DAU", f'{p["inches"]:03d} IN')]
    e += [("DAG", p["street"]), ("DAI", p["city"]), ("DAJ", p["state"]), ("DAK", p["postal"].ljust(11)),
          ("DAQ", p["number"]), ("DCF", p["discriminator"]), ("DCG", p["country"])]
    if v >= 4:
        e += [("DDE", "N"), ("DDF", "N"), ("DDG", "N")]
    e += [("DAZ", p["hair"]), ("DAW", f'{p["pounds"]:03d}'), ("DCK", p["icn"])]
    if v >= 4:
        e += [("DDA", "F"), ("DDB", fmt((2020, 1, 15), order)), ("DDK", "1")]
        y18 = (p["dob"][0] + 18, p["dob"][1], p["dob"][2])
        e += [("DDH", fmt(y18, order))]
    if v >= 11:
        e += [("DDM", "1"), ("DDO", "1")]
    return e


def build(p, jurisdiction_elements=True, damage=None):
    v = p["version"]
    elems = elements_for(p)
    sub = [(p["doc_type"], elems)]
    if jurisdiction_elements and v >= 2:
        z = "Z" + p["state"][0]
        sub.append((z, [(z + "A", "X"), (z + "B", "")]))
    bodies = [t.encode() + b"\n".join(k.encode() + val.encode() for k, val in el) + b"\r" for t, el in sub]
    header = b"@\n\x1e\rANSI " + p["iin"].encode() + f"{v:02d}".encode()
    if v >= 2:
        header += b"00"
    header += f"{len(sub):02d}".encode()
    offset = len(header) + 10 * len(sub)
    designators = b""
    for (t, _), body in zip(sub, bodies):
        designators += t.encode() + f"{offset:04d}{len(body):04d}".encode()
        offset += len(body)
    data = header + designators + b"".join(bodies)
    return data


def expected_fields(p):
    name_mid = p["middle"]
    f = {"lastName": p["last"], "firstName": p["first"], "middleName": name_mid if (p["version"] >= 4 or name_mid) else None,
         "documentNumber": p["number"], "dateOfBirth": iso(p["dob"]), "dateOfExpiry": iso(p["expiry"]),
         "dateOfIssue": iso(p["issue"]), "sex": "M" if p["sex"] == "1" else "F",
         "heightIn": p["inches"] if p["country"] == "USA" or p["version"] <= 1 else None,
         "heightCm": round(p["inches"] * 2.54) if (p["country"] == "CAN" and p["version"] >= 2) else None,
         "weightLb": p["pounds"], "eyeColor": p["eyes"], "hairColor": p["hair"], "street": p["street"],
         "city": p["city"], "state": p["state"],
         "postalCode": (p["postal"][:5] if p["postal"].endswith("0000") else p["postal"])}
    if p["version"] <= 1 and not name_mid:
        f["middleName"] = None
    if p["version"] in (2, 3) and not name_mid:
        f["middleName"] = None
    if p["version"] >= 4:
        f["organDonor"] = True
        f["complianceType"] = "F"
        f["under18Until"] = iso((p["dob"][0] + 18, p["dob"][1], p["dob"][2]))
    if p["version"] >= 11:
        f["commercial"] = True
        f["enhanced"] = True
        f["permit"] = None
    f = {k: v for k, v in f.items() if not (v is None and k in ("heightIn", "heightCm"))}
    return f


def damaged(data, mode, p):
    """The damage modes seen on real cards and scanners (issue 3)."""
    if mode == "crlf":           # keyboard-emulating scanner: LF -> CR LF
        return data.replace(b"\n", b"\r\n"), ["crlfLineEnds"]
    if mode == "cr-lost":        # git / scanner driver turned CR into LF
        return data.replace(b"\r", b"\n"), ["carriageReturnsLost"]
    if mode == "wedge":          # keyboard wedge: every control character lost
        return bytes(b for b in data if b >= 0x20), ["separatorsMissing"]
    if mode == "leading-junk":   # scanner prefix before the compliance indicator
        return b"]L0" + data, ["leadingJunk"]
    if mode == "at-junk":        # "@a" instead of the separators (California sample)
        return b"@a\n" + data[4:], ["nonStandardSeparators"]
    if mode == "offset-il":      # Illinois: DL offset 2 bytes early
        m = re.search(rb"(DL|ID)(\d{4})", data)
        o = int(m.group(2)) - 2
        return data[:m.start(2)] + f"{o:04d}".encode() + data[m.end(2):], ["subfileOffsetWrong"]
    if mode == "offset-sc":      # South Carolina: FS for RS and the offset one too far
        m = re.search(rb"(DL|ID)(\d{4})", data)
        o = int(m.group(2)) + 1
        d = data[:m.start(2)] + f"{o:04d}".encode() + data[m.end(2):]
        return d.replace(b"@\n\x1e\r", b"@\n\x1c\r", 1), ["fileSeparatorInHeader", "subfileOffsetWrong"]
    if mode == "offset-zero":    # Ontario: every offset 0000
        return re.sub(rb"((?:DL|ID|Z[A-Z]))\d{4}(\d{4})", lambda m: m.group(1) + b"0000" + m.group(2), data, count=2), ["subfileOffsetWrong"]
    if mode == "missing-rs":     # header without the record separator
        return data.replace(b"@\n\x1e\r", b"@\n\r", 1), ["missingRecordSeparator"]
    if mode == "entries-one-digit":  # number of entries as one digit ("…08011DL…", issue 14); offsets right
        m = re.match(rb"(.*?ANSI \d{6}\d\d\d\d)0(\d)", data, re.S)
        d = m.group(1) + m.group(2) + data[m.end():]
        return re.sub(rb"((?:DL|ID|Z[A-Z]))(\d{4})(\d{4})", lambda n: n.group(1) + f"{int(n.group(2)) - 1:04d}".encode() + n.group(3),
                      d, count=int(m.group(2))), ["invalidValue"]
    if mode == "stray-c1":       # C1 bytes from a scanner / re-encoded as UTF-8
        i = data.index(b"\nDCS") if b"\nDCS" in data else data.index(b"\nDAG")
        return data[:i] + b"\xc2\x90" + data[i:i + 1] + b"\x90" + data[i + 1:], ["strayControlBytes"]
    raise ValueError(mode)


def magstripe(rng):
    """British Columbia prints magnetic-stripe tracks in its PDF417 (AAMVA DL/ID-2000 Annex F)."""
    dob = date(rng, 1940, 2000)
    return (f"%BCVICTORIA^ZHANG,$WEI^1200 DOUGLAS ST$VICTORIA BC  V8W 2E6?"
            f";6360289876543=29{dob[1]:02d}{dob[0]:04d}{dob[1]:02d}{dob[2]:02d}=?"
            f"_%0AV8W2E6                     F165 60BLKBRO                          ZZ# [4Z33VT?").encode(), dob


def reference_reading(data):
    """An independent, deliberately simple reading of a public payload: DAQ, DBB and the IIN."""
    data = re.sub(rb"\xc2[\x80-\x9f]|[\x80-\x9f]", b"", data)  # stray C1 bytes are not data
    m = re.search(rb"(ANSI ?|AAMVA|AMVA )(\d{6})(\d\d)", data[:96])
    if not m:
        return None
    iin, version = m.group(2).decode(), int(m.group(3))
    daq = re.search(rb"DAQ([^\n\r\x1e|]*?)(?=[\n\r\x1e|]|DA[A-Z]|DB[A-Z]|DC[A-Z]|DD[A-Z]|$)", data)
    dbb = re.search(rb"DBB(\d{8})", data)
    dcg = re.search(rb"DCG(USA|CAN)", data)
    out = {"iin": iin, "version": version}
    if daq:
        out["documentNumber"] = daq.group(1).decode("latin-1").strip()
    if dbb:
        d = dbb.group(1).decode()
        country = dcg.group(1).decode() if dcg else ("CAN" if iin in CANADIAN else "USA")
        us = (int(d[4:]), int(d[:2]), int(d[2:4])); ca = (int(d[:4]), int(d[4:6]), int(d[6:]))
        first = ca if (version <= 1 or country == "CAN") else us
        other = us if first is ca else ca
        ok = lambda t: 1 <= t[1] <= 12 and 1 <= t[2] <= 31 and 1800 < t[0] < 2200
        out["dateOfBirth"] = iso(first) if ok(first) else (iso(other) if ok(other) else None)
    return out


CANADIAN = {"636012", "636013", "636016", "636017", "636028", "636044", "636048", "604426", "604428", "604429", "604432", "604433", "604434", "990876"}

# Public payloads whose reference reading is known not to apply (with the reason).
PUBLIC_NOT_AAMVA = {
    "joptimus-aamva-parser__fieldParser_2.txt": "every line is prefixed with '// ' (a comment in the test source); fields are unreadable",
}


def main():
    out_dir = os.path.join(HERE, "generated")
    os.makedirs(out_dir, exist_ok=True)
    for f in os.listdir(out_dir):
        os.remove(os.path.join(out_dir, f))
    cases = []
    versions = list(range(1, 12))
    for v in versions:
        for doc_type in (["DL", "ID"] if v >= 2 else ["DL"]):
            iin, state, country = ISSUERS[(v * 3 + (doc_type == "ID")) % len(ISSUERS)]
            p = person(rng, v, iin, state, country, doc_type)
            data = build(p)
            name = f"v{v:02d}-{doc_type.lower()}-{state.lower()}.bin"
            open(os.path.join(out_dir, name), "wb").write(data)
            cases.append({"file": "generated/" + name, "source": "make_payloads.py (seeded)", "version": v,
                          "iin": iin, "jurisdiction": state, "country": country,
                          "documentType": doc_type, "fields": expected_fields(p), "warnings": []})
    # Damaged copies of a version 08 and a version 01 license.
    for v in (8, 1):
        iin, state, country = ("636035", "IL", "USA") if v == 8 else ("636005", "SC", "USA")
        p = person(rng, v, iin, state, country, "DL")
        clean = build(p)
        modes = ["crlf", "cr-lost", "wedge", "leading-junk", "at-junk", "offset-il", "offset-sc", "offset-zero", "missing-rs", "stray-c1"]
        for mode in modes + (["entries-one-digit"] if v >= 2 else []):
            data, warnings = damaged(clean, mode, p)
            name = f"damaged-v{v:02d}-{mode}.bin"
            open(os.path.join(out_dir, name), "wb").write(data)
            cases.append({"file": "generated/" + name, "source": f"make_payloads.py (seeded), damage '{mode}'", "version": v,
                          "iin": iin, "jurisdiction": state, "country": country, "documentType": "DL",
                          "fields": expected_fields(p), "warnings": warnings})
    data, dob = magstripe(rng)
    open(os.path.join(out_dir, "magstripe-bc.bin"), "wb").write(data)
    cases.append({"file": "generated/magstripe-bc.bin", "source": "make_payloads.py (seeded), BC magnetic-stripe layout",
                  "version": None, "iin": "636028", "jurisdiction": "BC", "country": "CAN", "documentType": None,
                  "fields": {"lastName": "ZHANG", "firstName": "WEI", "documentNumber": "9876543", "dateOfBirth": iso(dob),
                             "sex": "F", "heightCm": 165, "weightKg": 60, "hairColor": "BLK", "eyeColor": "BRO",
                             "postalCode": "V8W2E6", "city": "VICTORIA", "state": "BC"},
                  "warnings": ["magneticStripe"]})

    public = []
    pub_dir = os.path.join(HERE, "public")
    for f in sorted(os.listdir(pub_dir)):
        if not f.endswith(".txt"):
            continue
        data = open(os.path.join(pub_dir, f), "rb").read()
        entry = {"file": "public/" + f}
        if f in PUBLIC_NOT_AAMVA:
            entry["unreadable"] = PUBLIC_NOT_AAMVA[f]
        elif data.lstrip()[:1] in (b"%", b";"):
            entry["magneticStripe"] = True
            m = re.search(rb";(\d{6})(\d+)=", data)
            entry["iin"] = m.group(1).decode(); entry["documentNumber"] = m.group(2).decode()[:13]
        else:
            entry.update(reference_reading(data) or {})
        public.append(entry)
    json.dump({"generated": cases, "public": public}, open(os.path.join(HERE, "expected.json"), "w"), indent=1)
    print(f"{len(cases)} generated payloads, {len(public)} public payloads")


if __name__ == "__main__":
    main()
