#!/usr/bin/env python3
"""Writes the MRZ test vectors in this folder.

    python3 TestVectors/mrz/make_vectors.py        (needs: pip install pycountry)

Every case carries its source. Three kinds of source:

* published specimens and samples: the MRZ text exactly as printed in the named public source
  (ICAO Doc 9303 examples, issuers' specimens as quoted in open-source test suites);
* tricky and invalid cases derived from them by the edits written here;
* generated cases from this script's seeded generator (`random.Random(SEED)`).

Expected values come from the small reference reader below, written from ICAO Doc 9303 (8th ed.)
Parts 3-7 independently of the Swift code. Where a source publishes field values, they are kept
under "published" and checked too, so a fault shared by both readers would still show.
"""
import json
import pathlib
import random
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "scripts"))
import pycountry  # noqa: E402

from gen_country_codes import ICAO_ADDITIONS  # noqa: E402

SEED = 9303
REFERENCE_DATE = (2025, 1, 1)
KNOWN_CODES = {c.alpha_3 for c in pycountry.countries} | set(ICAO_ADDITIONS)

# ---------------------------------------------------------------------------------------------
# Reference reader (ICAO 9303-3 §4.9 check digits; layouts of Parts 4-7; French 1988 ID).


def value(c):
    if c.isdigit():
        return int(c)
    if c == "<":
        return 0
    return ord(c) - 55


def check_digit(s):
    return str(sum(value(c) * (7, 3, 1)[i % 3] for i, c in enumerate(s)) % 10)


# (line, start, length), 0-based
LAYOUTS = {
    "TD3": dict(width=44, lines=2, code=(0, 0, 2), state=(0, 2, 3), name=(0, 5, 39), num=(1, 0, 9), numcd=(1, 9),
                nat=(1, 10, 3), dob=(1, 13, 6), dobcd=(1, 19), sex=(1, 20), doe=(1, 21, 6), doecd=(1, 27),
                opt1=(1, 28, 14), optcd=(1, 42), opt2=None, comp=(1, 43),
                compspans=[(1, 0, 10), (1, 13, 7), (1, 21, 22)], cont=None),
    "MRVA": dict(width=44, lines=2, code=(0, 0, 2), state=(0, 2, 3), name=(0, 5, 39), num=(1, 0, 9), numcd=(1, 9),
                 nat=(1, 10, 3), dob=(1, 13, 6), dobcd=(1, 19), sex=(1, 20), doe=(1, 21, 6), doecd=(1, 27),
                 opt1=(1, 28, 16), optcd=None, opt2=None, comp=None, compspans=[], cont=None),
    "TD2": dict(width=36, lines=2, code=(0, 0, 2), state=(0, 2, 3), name=(0, 5, 31), num=(1, 0, 9), numcd=(1, 9),
                nat=(1, 10, 3), dob=(1, 13, 6), dobcd=(1, 19), sex=(1, 20), doe=(1, 21, 6), doecd=(1, 27),
                opt1=(1, 28, 7), optcd=None, opt2=None, comp=(1, 35),
                compspans=[(1, 0, 10), (1, 13, 7), (1, 21, 14)], cont=(1, 28, 7)),
    "MRVB": dict(width=36, lines=2, code=(0, 0, 2), state=(0, 2, 3), name=(0, 5, 31), num=(1, 0, 9), numcd=(1, 9),
                 nat=(1, 10, 3), dob=(1, 13, 6), dobcd=(1, 19), sex=(1, 20), doe=(1, 21, 6), doecd=(1, 27),
                 opt1=(1, 28, 8), optcd=None, opt2=None, comp=None, compspans=[], cont=None),
    "TD1": dict(width=30, lines=3, code=(0, 0, 2), state=(0, 2, 3), name=(2, 0, 30), num=(0, 5, 9), numcd=(0, 14),
                nat=(1, 15, 3), dob=(1, 0, 6), dobcd=(1, 6), sex=(1, 7), doe=(1, 8, 6), doecd=(1, 14),
                opt1=(0, 15, 15), optcd=None, opt2=(1, 18, 11), comp=(1, 29),
                compspans=[(0, 5, 25), (1, 0, 7), (1, 8, 7), (1, 18, 11)], cont=(0, 15, 15)),
    "FRA_ID_1988": dict(width=36, lines=2, code=(0, 0, 2), state=(0, 2, 3), name=None, primary=(0, 5, 25),
                        secondary=(1, 13, 14), num=(1, 0, 12), numcd=(1, 12), nat=None, dob=(1, 27, 6),
                        dobcd=(1, 33), sex=(1, 34), doe=None, doecd=None, opt1=(0, 30, 6), optcd=None, opt2=None,
                        comp=(1, 35), compspans=[(0, 0, 36), (1, 0, 35)], cont=None),
}


def detect(lines):
    if len(lines) == 3:
        return "TD1"
    width = len(lines[0])
    if width == 44:
        return "MRVA" if lines[0][0] == "V" else "TD3"
    if lines[0][0] == "V":
        return "MRVB"
    if lines[0].startswith("IDFRA"):
        return "FRA_ID_1988"
    return "TD2"


def get(lines, span):
    line, start, length = span
    return lines[line][start:start + length]


def trim(s):
    return s.rstrip("<")


def ident(s):
    return " ".join(p for p in s.split("<") if p)


def days_in_month(y, m):
    if m == 2:
        return 29 if (y % 4 == 0 and y % 100 != 0) or y % 400 == 0 else 28
    return 30 if m in (4, 6, 9, 11) else 31


def read(lines, ref=REFERENCE_DATE):
    fmt = detect(lines)
    L = LAYOUTS[fmt]
    errors, warnings, deviations = [], [], []
    checks = dict(documentNumber=None, dateOfBirth=None, dateOfExpiry=None, optionalData=None, composite=None)

    def cd_at(pos):
        return lines[pos[0]][pos[1]]

    def verdict(field, text, pos):
        ok = check_digit(text) == cd_at(pos)
        if not ok:
            errors.append(("invalidCheckDigit", field, pos[0] + 1, pos[1] + 1))
        return "valid" if ok else "invalid"

    # document number, TD1/TD2 long-number rule
    number = get(lines, L["num"])
    opt1 = trim(get(lines, L["opt1"])) if L["opt1"] else None
    if L["cont"] and cd_at(L["numcd"]) == "<":
        rest = get(lines, L["cont"])
        extent = rest.find("<")
        if extent < 0:
            extent = len(rest)
        if extent == 0:
            checks["documentNumber"] = "invalid"
            errors.append(("missingLongDocumentNumber", "documentNumber", L["numcd"][0] + 1, L["numcd"][1] + 1))
            document_number = trim(number)
        else:
            ext = rest[:extent - 1]
            pos = (L["cont"][0], L["cont"][1] + extent - 1)
            checks["documentNumber"] = verdict("documentNumber", number + ext, pos)
            if checks["documentNumber"] == "invalid" and check_digit(number + "<" + ext) == cd_at(pos):
                deviations.append(("longNumberCheckDigitIncludesFiller", "documentNumber", pos[0] + 1, pos[1] + 1))
            document_number = number + ext
            opt1 = trim(rest[extent + 1:])
    else:
        checks["documentNumber"] = verdict("documentNumber", number, L["numcd"])
        document_number = trim(number)

    checks["dateOfBirth"] = verdict("dateOfBirth", get(lines, L["dob"]), L["dobcd"])
    omitted = bool(L["doe"]) and set(get(lines, L["doe"]) + cd_at(L["doecd"])) == {"<"}
    if L["doe"]:
        checks["dateOfExpiry"] = verdict("dateOfExpiry", get(lines, L["doe"]), L["doecd"])
        if checks["dateOfExpiry"] == "invalid" and omitted:
            deviations.append(("expiryDateOmitted", "dateOfExpiry", L["doecd"][0] + 1, L["doecd"][1] + 1))
    if L["optcd"]:
        field = get(lines, L["opt1"])
        found = cd_at(L["optcd"])
        if set(field) == {"<"} and found in "<0":
            checks["optionalData"] = "valid"
        elif found == "<":
            checks["optionalData"] = "invalid"
            errors.append(("invalidCheckDigit", "optionalData", L["optcd"][0] + 1, L["optcd"][1] + 1))
        else:
            checks["optionalData"] = verdict("optionalData", field, L["optcd"])
    if L["comp"]:
        checks["composite"] = verdict("composite", "".join(get(lines, s) for s in L["compspans"]), L["comp"])

    if L["name"]:
        raw = get(lines, L["name"])
        i = raw.find("<<")
        primary, secondary = (ident(raw), "") if i < 0 else (ident(raw[:i]), ident(raw[i + 2:]))
    else:
        primary, secondary = ident(get(lines, L["primary"])), ident(get(lines, L["secondary"]))
    sex = cd_at(L["sex"])
    fields = dict(
        documentCode=trim(get(lines, L["code"])),
        issuingState=trim(get(lines, L["state"])),
        documentNumber=document_number,
        primaryIdentifier=primary,
        secondaryIdentifier=secondary,
        nationality=trim(get(lines, L["nat"])) if L["nat"] else None,
        dateOfBirth=get(lines, L["dob"]),
        sex="" if sex == "<" else sex,
        dateOfExpiry=get(lines, L["doe"]) if L["doe"] else None,
        optionalData1=opt1,
        optionalData2=trim(get(lines, L["opt2"])) if L["opt2"] else None,
    )

    # what check digits cannot catch: impossible documents are errors, the rest warnings
    def warn(code, field, line, col):
        warnings.append((code, field, line + 1, col + 1))

    def fail(code, field, line, col):
        errors.append((code, field, line + 1, col + 1))

    code = get(lines, L["code"])
    digit_in_code = [i for i, c in enumerate(code) if c.isdigit()]
    if digit_in_code:
        warn("digitInCode", "documentCode", L["code"][0], L["code"][1] + digit_in_code[0])
    else:
        first = code[0]
        ok = {"TD3": first == "P", "MRVA": first == "V", "MRVB": first == "V", "FRA_ID_1988": True,
              "TD1": first in "ACI" and code[1] != "V", "TD2": first in "ACI" and code[1] != "V"}[fmt]
        if not ok:
            warn("unexpectedDocumentCode", "documentCode", L["code"][0], L["code"][1])
    for key, field in (("state", "issuingState"), ("nat", "nationality")):
        if not L[key]:
            continue
        raw = get(lines, L[key])
        digits = [i for i, c in enumerate(raw) if c.isdigit()]
        if digits:
            fail("digitInCode", field, L[key][0], L[key][1] + digits[0])
        else:
            stripped = raw.rstrip("<")
            if "<" in stripped or stripped not in KNOWN_CODES:
                warn("unknownCountryCode", field, L[key][0], L[key][1])
    name_spans = [L["name"]] if L["name"] else [L["primary"], L["secondary"]]
    for span in name_spans:
        raw = get(lines, span)
        digits = [i for i, c in enumerate(raw) if c.isdigit()]
        if digits:
            warn("digitInName", "name", span[0], span[1] + digits[0])
    if L["name"] and get(lines, L["name"])[0] == "<":
        warn("emptyPrimaryIdentifier", "primaryIdentifier", L["name"][0], L["name"][1])
    if sex not in "MFX<":
        fail("invalidSex", "sex", L["sex"][0], L["sex"][1])

    def resolve(raw, span, field, birth):
        n = 0
        while n < 6 and raw[n].isdigit():
            n += 1
        if birth:
            f = n
            while f < 6 and raw[f] == "<":
                f += 1
            if f < 6 or n not in (0, 2, 4, 6):
                bad = f if f < 6 else n
                kind = "impossibleDate" if (raw[bad].isdigit() or raw[bad] == "<") else "invalidDateCharacter"
                fail(kind, field, span[0], span[1] + bad)
                return None
        elif n < 6:
            fail("invalidDateCharacter", field, span[0], span[1] + n)
            return None
        if n < 2:
            return None
        yy = int(raw[:2])
        month = int(raw[2:4]) if n >= 4 else None
        if month is not None and not 1 <= month <= 12:
            fail("impossibleDate", field, span[0], span[1] + 2)
            return None
        if n < 6:
            return None
        day = int(raw[4:6])
        year = (ref[0] // 100) * 100 + yy
        if birth:
            if (year, month, day) > ref:
                year -= 100
        else:
            if year > ref[0] + 49:
                year -= 100
            elif year < ref[0] - 50:
                year += 100
        if not 1 <= day <= days_in_month(year, month):
            fail("impossibleDate", field, span[0], span[1] + 4)
            return None
        return (year, month, day)

    birth = resolve(get(lines, L["dob"]), L["dob"], "dateOfBirth", True)
    expiry = resolve(get(lines, L["doe"]), L["doe"], "dateOfExpiry", False) if L["doe"] and not omitted else None
    if birth and expiry and expiry < birth:
        fail("expiryBeforeBirth", "dateOfExpiry", L["doe"][0], L["doe"][1])

    def iso(d):
        return None if d is None else "%04d-%02d-%02d" % d

    valid = not errors
    with_dev = all(e[0] == "invalidCheckDigit" and any(d[1] == e[1] for d in deviations) for e in errors)
    as_list = lambda xs: [dict(code=c, field=f, line=ln, column=col) for c, f, ln, col in xs]  # noqa: E731
    return dict(format=fmt, valid=valid, validWithDeviations=with_dev, fields=fields, checkDigits=checks,
                errors=as_list(errors), warnings=as_list(warnings), deviations=as_list(deviations),
                resolvedDates=dict(dateOfBirth=iso(birth), dateOfExpiry=iso(expiry)))


# ---------------------------------------------------------------------------------------------
# Published specimens and samples: (id, source, lines, published field values or {}).

JMRTD = "JMRTD MRZInfoTest.java (jmrtd test suite; PRADO/issuer specimens)"
ARGOS = "Arg0s1080/mrz (PyPI mrz) examples and tests"
CHEMINFO = "cheminfo/mrz src/parse/__tests__"
ICAO = "ICAO Doc 9303"

SPECIMENS = [
    ("icao-td3-utopia", ICAO + " Part 4 specimen (Utopia TD3 passport)",
     ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"],
     dict(documentNumber="L898902C3", primaryIdentifier="ERIKSSON", secondaryIdentifier="ANNA MARIA",
          dateOfBirth="740812", dateOfExpiry="120415", optionalData1="ZE184226B")),
    ("icao-td1-utopia", ICAO + " Part 5 specimen (Utopia TD1 card)",
     ["I<UTOD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"],
     dict(documentNumber="D23145890", optionalData1="", optionalData2="")),
    ("icao-td1-long-number", ICAO + " Part 5 long-document-number example (D23145890734, check digit 9)",
     ["I<UTOD23145890<7349<<<<<<<<<<<", "3407127M9507122UTO<<<<<<<<<<<2", "STEVENSON<<PETER<JOHN<<<<<<<<<"],
     dict(documentNumber="D23145890734")),
    ("icao-td2-utopia", ICAO + " Part 6 specimen (Utopia TD2); also " + ARGOS + " td2_chk_02",
     ["I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<", "D231458907UTO7408122F1204159<<<<<<<6"],
     dict(documentCode="I", documentNumber="D23145890", optionalData1="", dateOfBirth="740812")),
    ("icao-mrva-utopia", ICAO + " Part 7 specimen (Utopia MRV-A visa)",
     ["V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L8988901C4XXX4009078F96121096ZE184226B<<<<<<"],
     dict(documentNumber="L8988901C", nationality="XXX", optionalData1="6ZE184226B")),
    ("icao-mrvb-utopia", ICAO + " Part 7 specimen (Utopia MRV-B visa); also " + JMRTD + " testMRVB",
     ["V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<", "L8988901C4XXX4009078F9612109<<<<<<<<"],
     dict(documentNumber="L8988901C", optionalData1="", dateOfBirth="400907", dateOfExpiry="961210")),
    ("icao-bac-appendix-d", ICAO + " Part 11 Appendix D (BAC worked example MRZ); " + JMRTD,
     ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C<3UTO6908061F9406236ZE184226B<<<<<14"],
     dict(documentNumber="L898902C", dateOfBirth="690806", dateOfExpiry="940623")),
    ("fra-id-1988-specimen", "French national ID specimen (BERTHIER Corinne) as in " + CHEMINFO + " frenchNationalId",
     ["IDFRABERTHIER<<<<<<<<<<<<<<<<<<<<<<<", "9409923102854CORINNE<<<<<<<6512068F4"],
     dict(documentNumber="940992310285", primaryIdentifier="BERTHIER", secondaryIdentifier="CORINNE")),
    ("fra-id-1988-specimen-2", "French national ID specimen (BERTHIER Corinne, card 880692310285) in public parser tests",
     ["IDFRABERTHIER<<<<<<<<<<<<<<<<<<<<<<<", "8806923102858CORINNE<<<<<<<6512068F6"], {}),
    ("fra-id-1988-office-code", CHEMINFO + " frenchNationalId 'valid MRZ'",
     ["IDFRATEST<NAME<<<<<<<<<<<<<<<<0CHE02", "1710GVA123451ROBERTA<<<<<<<9112311F2"],
     dict(primaryIdentifier="TEST NAME", secondaryIdentifier="ROBERTA", dateOfBirth="911231")),
    ("deu-passport-2007", CHEMINFO + " td3 'German example' (German passport specimen)",
     ["P<D<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<<<<<<<<<", "C01X0006H1D<<6408125F1710319<<<<<<<<<<<<<<<0"],
     dict(issuingState="D", nationality="D", documentNumber="C01X0006H", optionalData1="")),
    ("deu-passport-2017", JMRTD + " testDEUTD3 (German passport specimen)",
     ["P<D<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<<<<<<<<<", "C01XGY7661D<<6408125F2707196<<<<<<<<<<<<<<<2"],
     dict(documentNumber="C01XGY766", dateOfExpiry="270719")),
    ("deu-passport-jmrtd", JMRTD + " MRZ_ERIKA_MUSTERMAN_2LINE_ID3",
     ["P<D<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<<<<<<<<<", "C11T002JM4D<<9608122F1310317<<<<<<<<<<<<<<<6"],
     dict(documentNumber="C11T002JM", dateOfBirth="960812", dateOfExpiry="131031")),
    ("deu-id-2010-specimen", "German ID card specimen (Personalausweis 2010, MUSTERMANN ERIKA) as quoted in "
     "many public parser tests (e.g. Java Personalausweisnummer tests, Ruby MRZ::TD1Parser specs)",
     ["IDD<<T220001293<<<<<<<<<<<<<<<", "6408125<2010315D<<<<<<<<<<<<<4", "MUSTERMANN<<ERIKA<<<<<<<<<<<<<"],
     dict(documentCode="ID", issuingState="D", documentNumber="T22000129", sex="", nationality="D")),
    ("deu-id-2021-specimen", "German ID card specimen (2021, LZ6311T47) as quoted in a public parser's test inputs",
     ["IDD<<LZ6311T475<<<<<<<<<<<<<<<", "8308126<3110315D<<2108<<<<<<<9", "MUSTERMANN<<ERIKA<<<<<<<<<<<<<"],
     dict(documentNumber="LZ6311T47", optionalData2="2108")),
    ("gbr-id-sample", JMRTD + " MRZ_SUSANNA_SAMPLE_3LINE_ID1",
     ["IRGBRZU12345673<<<<<<<<<<<<<<<", "6608198F0808088COU<<<<<<<<<<<6", "SAMPLE<<SUSANNA<<<<<<<<<<<<<<<"],
     dict(documentCode="IR", documentNumber="ZU1234567")),
    ("gbr-passport-specimen", JMRTD + " testGBRTD3 (UK passport specimen)",
     ["P<GBRUK<SPECIMEN<<ANGELA<ZOE<<<<<<<<<<<<<<<<", "9992307632GBR9501016F2911272<<<<<<<<<<<<<<02"],
     dict(primaryIdentifier="UK SPECIMEN", secondaryIdentifier="ANGELA ZOE", documentNumber="999230763")),
    ("pol-id-specimen", JMRTD + " MRZ_ANNA_KOWALSKA_3LINE_ID1",
     ["I<POLABA3000004<<<<<<<<<<<<<<<", "7203305F1208227POL<<<<<<<<<<<2", "KOWALSKA<<ANNA<<<<<<<<<<<<<<<<"], {}),
    ("nld-passport-2014", JMRTD + " testNLDTD3Old (Dutch passport specimen)",
     ["P<NLDDE<BRUIJN<<WILLEKE<LISELOTTE<<<<<<<<<<<", "SPECI20142NLD6503101F2403096999999990<<<<<84"],
     dict(documentNumber="SPECI2014", primaryIdentifier="DE BRUIJN", secondaryIdentifier="WILLEKE LISELOTTE",
          optionalData1="999999990")),
    ("nld-passport-2021", JMRTD + " testNLDTD3New (Dutch passport specimen)",
     ["P<NLDDE<BRUIJN<<WILLEKE<LISELOTTE<<<<<<<<<<<", "SPECI20212NLD6503101F3108309<<<<<<<<<<<<<<<0"],
     dict(documentNumber="SPECI2021", optionalData1="")),
    ("nld-id-2021", JMRTD + " testNLDTD1EmptyOptionalData1 (Dutch ID specimen)",
     ["I<NLDSPECI20212<<<<<<<<<<<<<<<", "6503101F3108022NLD<<<<<<<<<<<8", "DE<BRUIJN<<WILLEKE<LISELOTTE<<"],
     dict(optionalData1="", optionalData2="")),
    ("nld-id-2014", "Dutch ID specimen quoted in public parser tests (raw_mrz)",
     ["I<NLDSPECI20142999999990<<<<<8", "6503101F2403096NLD<<<<<<<<<<<8", "DE<BRUIJN<<WILLEKE<LISELOTTE<<"], {}),
    ("nld-passport-meulendijk", JMRTD + " MRZ_LOES_MEULENDIJK_2LINE_ID3_ZERO_CHECKDIGIT",
     ["P<NLDMEULENDIJK<<LOES<ALBERTINE<<<<<<<<<<<<<", "XX00000000NLD7110195F1108280123456782<<<<<02"],
     dict(documentNumber="XX0000000", dateOfBirth="711019")),
    ("nld-passport-truncated-name", JMRTD + " MRZ_GERARD_ROBBERT_MARTINUS_SEBASTIAAN_VAN_NIEUWENHUIZEN",
     ["P<NLDVAN<NIEUWENHUIZEN<<GERARD<ROBBERT<MARTI", "XN01BC0150NLD7112247M1108268123456782<<<<<02"],
     dict(primaryIdentifier="VAN NIEUWENHUIZEN", secondaryIdentifier="GERARD ROBBERT MARTI")),
    ("nld-id-long-number", JMRTD + " testTD1LongDocumentNumberAndAlsoOptionalData1",
     ["I<NLD123456789<010<OHDA1<<<<<<", "6503101F3108022NLDOPT<DATA2<<5", "DE<BRUIJN<<WILLEKE<LISELOTTE<<"],
     dict(documentNumber="12345678901", optionalData1="OHDA1", optionalData2="OPT<DATA2")),
    ("nld-id-long-number-max-optional", JMRTD + " testTD1ConstructedLongDocumentNumberAndAlsoMaxOptionalData1",
     ["I<NLD123456789<07<OHDA1234567X", "6503101F3108022NLDOPT<DATA2<<1", "DE<BRUIJN<<WILLEKE<LISELOTTE<<"],
     dict(documentNumber="1234567890", optionalData1="OHDA1234567X")),
    ("nld-id-very-long-number", JMRTD + " testTD1ConstructedLongMaxDocumentNumberAndAlsoOptionalData1",
     ["I<NLD123456789<0123456788018<X", "6503101F3108022NLDOPT<DATA2<<5", "DE<BRUIJN<<WILLEKE<LISELOTTE<<"],
     dict(documentNumber="123456789012345678801", optionalData1="X")),
    ("nld-id-optional-fillers", JMRTD + " testTD1OptionalData1OptionalData2",
     ["I<NLDSPECI20212OPT<DATA1<<<<<1", "6503101F3108022NLDOPT<DATA<<22", "DE<BRUIJN<<WILLEKE<LISELOTTE<<"],
     dict(optionalData1="OPT<DATA1<<<<<1", optionalData2="OPT<DATA<<2")),
    ("cze-passport-specimen", JMRTD + " MRZ_VZOR_SPECIMEN_2LINE_ID3",
     ["P<CZESPECIMEN<<VZOR<<<<<<<<<<<<<<<<<<<<<<<<<", "99009054<4CZE6906229F16072996956220612<<<<74"],
     dict(documentNumber="99009054", dateOfBirth="690622", dateOfExpiry="160729")),
    ("usa-passport-sample", JMRTD + " MRZ_HAPPY_TRAVELER_2LINE_ID3",
     ["P<USATRAVELER<<HAPPY<<<<<<<<<<<<<<<<<<<<<<<<", "1500000035USA5609165M0811150<<<<<<<<<<<<<<08"], {}),
    ("usa-passport-amoss", JMRTD + " MRZ_FRANK_AMOSS_2LINE_ID3",
     ["P<USAAMOSS<<FRANK<<<<<<<<<<<<<<<<<<<<<<<<<<<", "0000780043USA5001013M1511169100000000<381564"],
     dict(documentNumber="000078004", dateOfBirth="500101", dateOfExpiry="151116")),
    ("arg-passport-sample", JMRTD + " MRZ_LORENA_FERNANDEZ_2LINE_ID3",
     ["P<ARGFERNANDEZ<<LORENA<<<<<<<<<<<<<<<<<<<<<<", "00000000A0ARG7903122F081210212300004<<<<<<86"], {}),
    ("chn-hk-passport-sample", JMRTD + " MRZ_KWOK_SUM_CHNCHUNG_2LINE_ID3",
     ["P<CHNCHUNG<<KWOK<SUM<<<<<<<<<<<<<<<<<<<<<<<<", "K123455994CHN8008080F1702057HK8888888<<<<<36"], {}),
    ("mys-passport-one-identifier", JMRTD + " testArnjlotMalaysia (anonymised)",
     ["P<MYSABC<DEFG<HIJKLMNOP<QRS<TUV<XYZABCDEFGHI", "A984726053MYS8709125M2204134880811055050<<52"],
     dict(primaryIdentifier="ABC DEFG HIJKLMNOP QRS TUV XYZABCDEFGHI", secondaryIdentifier="")),
    ("mys-passport-long-primary", JMRTD + " testArnjlotLongPrimaryIdenfitier",
     ["P<MYSMEGAN<ELLA<RUTH<BIN<ISMAELAR<EZZAHUDDIN", "A001122338MYS0911267M2010153<<<<<<<<<<<<<<<8"],
     dict(primaryIdentifier="MEGAN ELLA RUTH BIN ISMAELAR EZZAHUDDIN", secondaryIdentifier="")),
    ("bel-id-specimen-2009", JMRTD + " testBelgianMRZ (Belgian ID specimen)",
     ["IDBEL590330101085020100200<<<<", "8502016F0901015BEL<<<<<<<<<<<8", "VAN<DER<VELDEN<<GREET<HILDE<<<"],
     dict(primaryIdentifier="VAN DER VELDEN", secondaryIdentifier="GREET HILDE")),
    ("bel-id-long-number", JMRTD + " testBELID (Belgian ID specimen, long number)",
     ["IDBEL000000387<2899<<<<<<<<<<<", "9502286F3001064BEL950228998741", "SPECIMEN<<SPECIMEN<<<<<<<<<<<<"],
     dict(documentNumber="000000387289", optionalData1="", optionalData2="95022899874")),
    ("bel-id-long-number-uto", JMRTD + " testTD1BELDocumentNumberAndOptionalData1",
     ["IDBEL600001131<7755<<<<<<<<<<<", "1301014F2311207UTO130101123596", "SPECIMEN<<SPECIMEN<<<<<<<<<<<<"],
     dict(documentNumber="600001131775")),
    ("prt-id-prado", JMRTD + " testPRTFromPrado (Portuguese ID, PRADO)",
     ["I<PRT000024759<ZZ70<<<<<<<<<<<", "8010100F2006017PRT<<<<<<<<<<<2", "CARLOS<MONTEIRO<<AMELIA<VANESS"],
     dict(documentNumber="000024759ZZ7", optionalData1="", optionalData2="")),
    ("prt-id-bug65", JMRTD + " testBug65 (Portuguese ID)",
     ["I<PRT119000652<ZX46<<<<<<<<<<<", "8109231M2906128PRT<<<<<<<<<<<2", "MENDES<ESTEVES<NOGUEIRA<<RUI<G"],
     dict(documentNumber="119000652ZX4")),
    ("lva-id", JMRTD + " testLVATD1EmptyOptionalData2 (Latvian ID)",
     ["I<LVAPA99220658324951<45849<<<", "8212122F2911113LVA<<<<<<<<<<<4", "PARAUDZINA<<MARA<<<<<<<<<<<<<<"],
     dict(optionalData1="324951<45849", optionalData2="")),
    ("che-id", CHEMINFO + " td1 'swiss ID - valid'",
     ["IDCHEA1234567<6<<<<<<<<<<<<<<<", "7510256M2009018CHE<<<<<<<<<<<8", "SMITH<<JOHN<ALBERT<<<<<<<<<<<<"],
     dict(documentNumber="A1234567", secondaryIdentifier="JOHN ALBERT", optionalData1="", optionalData2="")),
    ("che-id-no-surname", CHEMINFO + " td1 'No last name'",
     ["I<CHED231458907ABC<<<<<<<<<<<<", "7408122F1204159CHE<<<<<<<<<<<1", "<<ANNA<MARIA<<<<<<<<<<<<<<<<<<"],
     dict(primaryIdentifier="", secondaryIdentifier="ANNA MARIA", optionalData1="ABC")),
    ("ind-no-surname", CHEMINFO + " td3 'No last name'",
     ["P<IND<<FIRST<NAME<<<<<<<<<<<<<<<<<<<<<<<<<<<", "C01X0006H1D<<6408125F1710319<<<<<<<<<<<<<<<0"],
     dict(primaryIdentifier="", secondaryIdentifier="FIRST NAME")),
    ("esp-id-specimen", ARGOS + " tests/td1_chk_03 (Spanish DNI specimen)",
     ["IDESPBAA000589599999999R<<<<<<", "8001014F2501017ESP<<<<<<<<<<<7", "ESPANOLA<ESPANOLA<<CARMEN<<<<<"],
     dict(primaryIdentifier="ESPANOLA ESPANOLA", secondaryIdentifier="CARMEN", documentNumber="BAA000589",
          optionalData1="99999999R", optionalData2="")),
    ("esp-id-specimen-2021", JMRTD + " testTD1ESPDocumentNumberAndOptionalData1",
     ["IDESPCAA000000499999999R<<<<<<", "8001014F3106028ESP<<<<<<<<<<<1", "ESPANOLA<ESPANOLA<<CARMEN<<<<<"],
     dict(documentNumber="CAA000000", optionalData1="99999999R")),
    ("lie-id", ARGOS + " tests/td1_chk_01 (Liechtenstein ID)",
     ["IDLIEID98754015<<<<<<<<<<<<<<<", "8205122M1906224LIE<<<<<<<<<<<6", "OSPELT<BECK<<MARISA<<<<<<<<<<<"], {}),
    ("srb-id", ARGOS + " tests/td1_chk_02 (Serbian ID)",
     ["IDSRB95555554612902968000000<<", "6802295F1307245SRB<<<<<<<<<<<6", "TEST<<MILICA<<<<<<<<<<<<<<<<<<"], {}),
    ("swe-id-specimen", ARGOS + " examples id_card_swe (Swedish ID specimen)",
     ["I<SWE59000002<8198703142391<<<", "8703145M1701027SWE<<<<<<<<<<<8", "SPECIMEN<<SVEN<<<<<<<<<<<<<<<<"], {}),
    ("mco-id-specimen", ARGOS + " examples id_card_mco (Monaco ID specimen)",
     ["I<MCO029067<<<0<<<<<<<<<<<<<<<", "9901018F0903248MCO<<<<<<<<<<<0", "SPECIMEN<<SPECIMEN<<<<<<<<<<<<"], {}),
    ("can-passport-specimen", ARGOS + " tests/td3_chk_04 (Canadian passport specimen)",
     ["P<CANMARTIN<<SARAH<<<<<<<<<<<<<<<<<<<<<<<<<<", "ZE000509<9CAN8501019F2301147<<<<<<<<<<<<<<08"],
     dict(documentNumber="ZE000509")),
    ("can-passport-filler-cd", ARGOS + " tests/td3_chk_04 test_b (personal-number check digit '<')",
     ["P<CANMARTIN<<SARAH<<<<<<<<<<<<<<<<<<<<<<<<<<", "ZE000509<9CAN8501019F2301147<<<<<<<<<<<<<<<8"], {}),
    ("ukr-passport-specimen", ARGOS + " tests/td3_chk_02 (Ukrainian passport specimen)",
     ["P<UKRTKACHENKO<<MARIANA<<<<<<<<<<<<<<<<<<<<<", "XX000000<0UKR9108242F23092571234567890<<<<70"], {}),
    ("ita-id-2022-specimen", "Italian CIE 2022 specimen as quoted in public parser tests",
     ["C<ITACA00000AA4<<<<<<<<<<<<<<<", "6412308F2212304ITA<<<<<<<<<<<0", "ROSSI<<BIANCA<<<<<<<<<<<<<<<<<"],
     dict(documentCode="C", documentNumber="CA00000AA")),
    ("jpn-passport-sample", "Japanese passport sample (GAIMU HANAKO) in public parser tests",
     ["P<JPNGAIMU<<HANAKO<<<<<<<<<<<<<<<<<<<<<<<<<<", "TT15442512JPN9905050F3012257<<<<<<<<<<<<<<06"], {}),
    ("irl-passport-sample", "Irish passport sample (O'SULLIVAN LAUREN) in public NFC reader tests",
     ["P<IRLOSULLIVAN<<LAUREN<<<<<<<<<<<<<<<<<<<<<<", "XN50042162IRL8805049F2309154<<<<<<<<<<<<<<<6"], {}),
    ("nor-passport-specimen", JMRTD + " testNORTD3 (Norwegian passport specimen, code PU)",
     ["PUNORSPECIMEN<<PLACEBO<<<<<<<<<<<<<<<<<<<<<<", "00000000<0UTO0508104F19110135200508102468906"],
     dict(documentCode="PU", optionalData1="52005081024689")),
    ("nzl-passport", JMRTD + " testNZLTD3OptionalData (New Zealand passport)",
     ["P<NZLWATA<<AROHA<MERE<TERESA<<<<<<<<<<<<<<<<", "LF100358<5NZL9010015F2512152<<<<<<<<<<<<<<02"],
     dict(documentNumber="LF100358", optionalData1="")),
    ("aut-id", JMRTD + " testTD1AUTDocumentNumberAndOptionalData1 (Austrian ID)",
     ["IDAUTPA12345673<<<<<<<<<<<<<<<", "8112314F3108011AUT<<<<<<<<<<<6", "MUSTERFRAU<<MARIA<<<<<<<<<<<<<"], {}),
    ("est-id", JMRTD + " testTD1ESTDocumentNumberAndOptionalData1 (Estonian ID)",
     ["IDESTAS0002262038001085718<<<<", "8001081M2606288EST<<<<<<<<<<<9", "JOEORG<<JAAK<KRISTJAN<<<<<<<<<"],
     dict(documentNumber="AS0002262", optionalData1="38001085718")),
    ("rus-passport", "Russian passport sample (IMIAREK) in public parser tests",
     ["P<RUSIMIAREK<<EVGENII<<<<<<<<<<<<<<<<<<<<<<<", "1104000008RUS8209120M2601157<<<<<<<<<<<<<<06"], {}),
    ("rus-internal-passport", "Russian internal passport (ZDRIL7K) in public MRZ parser tests (Swift MRZParser)",
     ["PNRUSZDRIL7K<<SERGEQ<ANATOL9EVI3<<<<<<<<<<<<", "3919353498RUS7207233M<<<<<<<4151218910003<50"],
     dict(primaryIdentifier="ZDRIL7K", secondaryIdentifier="SERGEQ ANATOL9EVI3")),
    ("icao-td1-optional-abc", CHEMINFO + " td1 'Utopia example' (optional data ABC, composite 1)",
     ["I<UTOD231458907ABC<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<1", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"],
     dict(optionalData1="ABC", optionalData2="")),
    ("visa-usa-mrva", ARGOS + " examples visa_mrva_usa",
     ["VNUSATRAVELER<<HAPPY<<<<<<<<<<<<<<<<<<<<<<<<", "1234567897CAN6612120M1407282B3XLC000FD142955"], {}),
    ("visa-usa-mrva-2", ARGOS + " examples visa_mrva_usa2",
     ["VIUSATRAVELER<<HAPPYPERSON<<<<<<<<<<<<<<<<<<", "555123ABC6GBR6502056F0412236IFLND00AMS803085"], {}),
    ("visa-deu-mrvb", ARGOS + " tests/mrvb_chk_03 (German visa)",
     ["VBD<<DEDIC<<SIDNAN<<<<<<<<<<<<<<<<<<", "D091740530BIH8201135M9708011<2020711"],
     dict(documentCode="VB", issuingState="D", documentNumber="D09174053", optionalData1="<2020711")),
    ("visa-fra-mrvb", ARGOS + " examples visa_mrvb_fra (Schengen C visa specimen)",
     ["VCFRASPECIMEN<<SPECIMEN<<<<<<<<<<<<<", "F000000005UTO0311063M1401143<M300703"], {}),
    ("visa-gbr-mrvb", ARGOS + " examples visa_mrvb_gb",
     ["VDGBRMUNIR<<FAISAL<<<<<<<<<<<<<<<<<<", "AD07259817PAK7608151M0611165<<<<<<<<"], {}),
]

# Published samples that are wrong, kept as invalid cases with the reason.
PUBLISHED_INVALID = [
    ("nld-meulendijk-filler-cd-nonempty", JMRTD + " MRZ_LOES_MEULENDIJK_2LINE_ID3_FILLER_CHECKDIGIT: '<' as the "
     "personal-number check digit although the personal number is not empty",
     ["P<NLDMEULENDIJK<<LOES<ALBERTINE<<<<<<<<<<<<<", "XX00000000NLD7110195F1108280123456782<<<<<<2"]),
    ("deu-christian-bad-composite", JMRTD + " MRZ_CHRISTIAN_MUSTERMAN_2LINE_ID3: composite printed 2, computes 6",
     ["P<D<<MUSTERMAN<<CHRISTIAN<<<<<<<<<<<<<<<<<<<", "0000000000D<<8601067M1111156<<<<<<<<<<<<<<<2"]),
    ("td1-long-number-bad-cd", CHEMINFO + " td1 'parse document number' (composite fails)",
     ["I<UTOD23145890<1240<XYZ<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<8", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"]),
    ("td1-long-number-empty", JMRTD + " testMRZWithEmptyExtendedDocumentNumber: '<' check digit, nothing follows",
     ["I<UTOD23145890<<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"]),
    ("td2-long-number-jmrtd", JMRTD + " testTD2ExtendedDocumentNumber output: composite printed 4, ICAO gives 8",
     ["I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<", "123456789<UTO7408122F1204159104<<<<4"]),
    ("bra-uto-bug63", JMRTD + " testBug63 (optional data 2 right aligned; composite does not hold)",
     ["IDBRA123456789712345R00F4569<<", "7006012F0212311UTO<<<HDFDTR091", "OLIVEIRA<<MARIA<SILVA<<<<<<<<<"]),
]

# ---------------------------------------------------------------------------------------------
# Derived cases.


def with_char(lines, line, col, ch):
    out = list(lines)
    out[line] = out[line][:col] + ch + out[line][col + 1:]
    return out


def bad_check_digit_cases():
    """One bad check digit of each kind per layout, from a valid specimen of that layout."""
    bases = {"TD1": "icao-td1-utopia", "TD2": "icao-td2-utopia", "TD3": "icao-td3-utopia",
             "MRVA": "icao-mrva-utopia", "MRVB": "icao-mrvb-utopia", "FRA_ID_1988": "fra-id-1988-specimen"}
    by_id = {s[0]: s for s in SPECIMENS}
    cases = []
    for fmt, base_id in bases.items():
        lines = by_id[base_id][2]
        L = LAYOUTS[fmt]
        for key, field in (("numcd", "documentNumber"), ("dobcd", "dateOfBirth"), ("doecd", "dateOfExpiry"),
                           ("optcd", "optionalData"), ("comp", "composite")):
            pos = L.get(key)
            if not pos:
                continue
            good = lines[pos[0]][pos[1]]
            bad = str((int(good) + 3) % 10)
            cases.append(("bad-cd-%s-%s" % (fmt.lower(), field),
                          "derived: %s with the %s check digit changed %s→%s" % (base_id, field, good, bad),
                          with_char(lines, pos[0], pos[1], bad)))
    return cases


TRICKY = [
    # (id, description, base id, edits[(line, col, char)])
    ("semantic-td1-state-zero-for-O", "UT0 for UTO in the issuing state: no check digit covers it",
     "icao-td1-utopia", [(0, 4, "0")]),
    ("semantic-td3-nationality-swap", "nationality UTO→FRA: still valid, nationality is not covered",
     "icao-td3-utopia", [(1, 10, "F"), (1, 11, "R"), (1, 12, "A")]),
    ("semantic-td3-sex-invalid", "sex 'Q'", "icao-td3-utopia", [(1, 20, "Q")]),
    ("semantic-td3-sex-x", "sex 'X' (unspecified, 8th edition VIZ wording)", "icao-td3-utopia", [(1, 20, "X")]),
    ("semantic-td3-sex-filler", "sex '<' (unspecified)", "icao-td3-utopia", [(1, 20, "<")]),
    ("semantic-td3-digit-in-name", "digit 1 in the surname", "icao-td3-utopia", [(0, 7, "1")]),
    ("semantic-td3-unknown-state", "issuing state ZZZ", "icao-td3-utopia", [(0, 2, "Z"), (0, 3, "Z"), (0, 4, "Z")]),
    ("semantic-td3-doc-code-x", "document code X< on a TD3", "icao-td3-utopia", [(0, 0, "X")]),
    ("semantic-td1-doc-code-iv", "TD1 document code IV (second letter V is not allowed)", "icao-td1-utopia",
     [(0, 1, "V")]),
]


def generated_cases(rng):
    """Seeded MRZs: tricky valid shapes (unknown birth dates, leap days, GBR codes, stateless,
    empty fields) built with a check-digit-correct writer, then re-read by the reference reader."""
    def pad(s, n):
        return (s + "<" * n)[:n]

    def name_field(primary, secondary, n):
        text = primary.replace(" ", "<") + ("<<" + secondary.replace(" ", "<") if secondary else "")
        return pad(text, n)

    def td3(code, state, primary, secondary, number, nat, dob, sex, doe, personal, empty_cd="<"):
        l1 = pad(code, 2) + pad(state, 3) + name_field(primary, secondary, 39)
        num = pad(number, 9)
        opt = pad(personal, 14)
        optcd = empty_cd if not personal else check_digit(opt)
        body = num + check_digit(num) + pad(nat, 3) + dob + check_digit(dob) + sex + doe + check_digit(doe) + opt + optcd
        comp = check_digit(body[0:10] + body[13:20] + body[21:43])
        return [l1, body + comp]

    def td1(code, state, number, opt1, dob, sex, doe, nat, opt2, primary, secondary):
        if len(number) > 9:
            rest = number[9:] + check_digit(number) + ("<" + opt1 if opt1 else "")
            l1 = pad(code, 2) + pad(state, 3) + number[:9] + "<" + pad(rest, 15)
        else:
            num = pad(number, 9)
            l1 = pad(code, 2) + pad(state, 3) + num + check_digit(num) + pad(opt1, 15)
        l2 = dob + check_digit(dob) + sex + doe + check_digit(doe) + pad(nat, 3) + pad(opt2, 11)
        l2 += check_digit(l1[5:30] + l2[0:7] + l2[8:15] + l2[18:29])
        return [l1, l2, name_field(primary, secondary, 30)]

    def td2(code, state, primary, secondary, number, nat, dob, sex, doe, opt):
        l1 = pad(code, 2) + pad(state, 3) + name_field(primary, secondary, 31)
        if len(number) > 9:
            num = number[:9]
            head = num + "<"
            opt = number[9:] + check_digit(number) + ("<" + opt if opt else "")
        else:
            num = pad(number, 9)
            head = num + check_digit(num)
        body = head + pad(nat, 3) + dob + check_digit(dob) + sex + doe + check_digit(doe) + pad(opt, 7)
        return [l1, body + check_digit(body[0:10] + body[13:20] + body[21:35])]

    cases = [
        ("gen-td3-dob-day-unknown", "generated: date of birth with unknown day (YYMM<<)",
         td3("P", "UTO", "DOE", "JANE", "X1234567", "UTO", "8412<<", "F", "300101", "")),
        ("gen-td3-dob-month-unknown", "generated: date of birth with unknown month and day (YY<<<<)",
         td3("P", "UTO", "DOE", "JANE", "X1234568", "UTO", "84<<<<", "F", "300101", "")),
        ("gen-td3-dob-unknown", "generated: wholly unknown date of birth (<<<<<<)",
         td3("P", "UTO", "DOE", "JANE", "X1234569", "UTO", "<<<<<<", "F", "300101", "")),
        ("gen-td3-dob-filler-inside", "generated: unknown month but known day (84<<12) is not allowed",
         td3("P", "UTO", "DOE", "JANE", "X1234570", "UTO", "84<<12", "F", "300101", "")),
        ("gen-td3-leap-day", "generated: born 29 February 2000",
         td3("P", "UTO", "DOE", "JANE", "L1", "UTO", "000229", "F", "300101", "")),
        ("gen-td3-non-leap-day", "generated: 29 February 2001 does not exist",
         td3("P", "UTO", "DOE", "JANE", "L2", "UTO", "010229", "F", "300101", "")),
        ("gen-td3-month-13", "generated: month 13 with a correct check digit",
         td3("P", "UTO", "DOE", "JANE", "L3", "UTO", "841301", "F", "300101", "")),
        ("gen-td3-expiry-letter", "generated: a letter in the expiry date",
         td3("P", "UTO", "DOE", "JANE", "L4", "UTO", "840101", "F", "30A101", "")),
        ("gen-td3-expiry-before-birth", "generated: expiry 1990 before birth 1995",
         td3("P", "UTO", "DOE", "JANE", "L5", "UTO", "950101", "F", "900101", "")),
        ("gen-td3-gbd", "generated: British Overseas Territories Citizen (GBD)",
         td3("P", "GBR", "SMITH", "JOHN", "123456789", "GBD", "700101", "M", "300101", "")),
        ("gen-td3-stateless", "generated: stateless person XXA on a UNO travel document",
         td3("P", "UNO", "NOBODY", "ANN", "UN1234567", "XXA", "700101", "F", "300101", "")),
        ("gen-td3-refugee", "generated: refugee XXB, personal-number check digit 0 on an empty field",
         td3("P", "D", "FLUCHT", "AMIR", "R12345678", "XXB", "900101", "M", "300101", "", empty_cd="0")),
        ("gen-td3-full-name", "generated: name fills all 39 positions",
         td3("P", "UTO", "ABCDEFGHIJKLMNOPQRST", "UVWXYZABCDEFGHIJK", "N1", "UTO", "800101", "M", "300101", "")),
        ("gen-td3-personal-number", "generated: personal number with inner filler",
         td3("P", "UTO", "DOE", "JOHN", "P9", "UTO", "800101", "M", "300101", "AB<12345")),
        ("gen-td1-eue", "generated: EU laissez-passer style TD1 from EUE",
         td1("I", "EUE", "EU1234567", "", "800101", "F", "300101", "BEL", "", "DUPONT", "MARIE")),
        ("gen-td1-long-number-14", "generated: 14-character document number (long-number rule)",
         td1("ID", "UTO", "AB1234567890CD", "", "800101", "M", "300101", "UTO", "", "LONG", "NUMBER")),
        ("gen-td1-long-number-optional", "generated: long number followed by optional data",
         td1("ID", "UTO", "1234567890", "XYZ", "800101", "M", "300101", "UTO", "OPT", "LONG", "OPTIONAL")),
        ("gen-td1-unk", "generated: UNMIK document for a resident of Kosovo",
         td1("ID", "UNK", "K12345678", "", "800101", "M", "300101", "UNK", "", "KRASNIQI", "ARBEN")),
        ("gen-td1-ac-crew", "generated: crew member certificate AC",
         td1("AC", "UTO", "C12345678", "", "800101", "F", "300101", "UTO", "", "CREW", "MEMBER")),
        ("gen-td2-long-number", "generated: TD2 with a long document number",
         td2("I", "UTO", "ERIKSSON", "ANNA", "12345678910", "UTO", "740812", "F", "120415", "")),
        ("gen-td2-optional", "generated: TD2 optional data",
         td2("ID", "UTO", "ERIKSSON", "ANNA", "D23145890", "UTO", "740812", "F", "120415", "A1B2C")),
    ]
    # Belgian/Portuguese deviation: check digit computed over the number with the filler.
    number = "000590240601"
    l1 = "IDBEL" + number[:9] + "<" + ("601" + check_digit(number[:9] + "<" + number[9:]) + "<" * 11)
    l2 = "800101" + check_digit("800101") + "F" + "300101" + check_digit("300101") + "BEL" + "<" * 11
    l2 += check_digit(l1[5:30] + l2[0:7] + l2[8:15] + l2[18:29])
    cases.append(("gen-bel-deviation", "generated: long-number check digit over the filler (BEL-BO-03003 practice)",
                  [l1, l2, "SPECIMEN<<SPECIMEN<<<<<<<<<<<<"]))
    # Random round-trip material.
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    names = ["SMITH", "GARCIA", "MULLER", "ROSSI", "NOVAK", "KIM", "SILVA", "DUBOIS", "JANSEN", "OKAFOR"]
    given = ["ANNA", "JOHN", "MARIA", "PETER", "LI", "SOFIA", "AHMED", "EVA", "JOSE", "IVAN"]
    states = sorted(c for c in KNOWN_CODES if len(c) == 3 and not c.startswith("X"))
    for i in range(30):
        num = "".join(rng.choice(letters + "0123456789") for _ in range(rng.randint(6, 9)))
        y, m = rng.randint(0, 99), rng.randint(1, 12)
        d = rng.randint(1, 28)
        dob = "%02d%02d%02d" % (y, m, d)
        doe = "%02d%02d%02d" % (rng.randint(20, 40), rng.randint(1, 12), rng.randint(1, 28))
        state = rng.choice(states)
        p, g = rng.choice(names), rng.choice(given)
        sex = rng.choice("MFX<")
        kind = i % 3
        if kind == 0:
            lines = td3("P", state, p, g, num, state, dob, sex, doe, "" if i % 2 else "".join(rng.choice("0123456789") for _ in range(9)))
        elif kind == 1:
            lines = td1("I", state, num, "", dob, sex, doe, state, "", p, g)
        else:
            lines = td2("I", state, p, g, num, state, dob, sex, doe, "")
        cases.append(("gen-random-%02d" % i, "generated: seeded random %s (seed %d)" % (("TD3", "TD1", "TD2")[kind], SEED), lines))
    return cases


STRUCTURAL = [
    # (id, description, text, expected error kind, line, column)
    ("struct-empty", "empty input", "", "emptyInput", None, None),
    ("struct-whitespace", "only whitespace", "  \n\t\n", "emptyInput", None, None),
    ("struct-one-short-line", "one line of 20 characters", "P<UTOERIKSSON<<ANNA<", "lineCount", None, None),
    ("struct-lowercase", "lower case in line 1",
     "p<utoERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10",
     "lowercaseCharacter", 1, 1),
    ("struct-space-inside", "a space inside line 2",
     "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F12041 9ZE184226B<<<<<10",
     "illegalCharacter", 2, 27),
    ("struct-non-ascii", "Ü in the name (UTF-8, two bytes)",
     "P<UTOMÜLLER<<ANNA<<<<<<<<<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10",
     "illegalCharacter", 1, 7),
    ("struct-line2-short", "line 2 one character short",
     "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<1",
     "lineLength", 2, None),
    ("struct-line1-odd", "line 1 of 40 characters",
     "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10",
     "lineLength", 1, None),
    ("struct-td1-two-lines", "a 30-character MRZ with only 2 lines",
     "I<UTOD231458907<<<<<<<<<<<<<<<\n7408122F1204159UTO<<<<<<<<<<<6", "lineCount", None, None),
    ("struct-td1-line3-long", "TD1 line 3 of 31 characters",
     "I<UTOD231458907<<<<<<<<<<<<<<<\n7408122F1204159UTO<<<<<<<<<<<6\nERIKSSON<<ANNA<MARIA<<<<<<<<<<<",
     "lineLength", 3, None),
    ("struct-four-lines", "four lines",
     "I<UTOD231458907<<<<<<<<<<<<<<<\n7408122F1204159UTO<<<<<<<<<<<6\nERIKSSON<<ANNA<MARIA<<<<<<<<<<\nEXTRA",
     "lineCount", 4, None),
    ("struct-tab-inside", "a tab in line 1",
     "I<UTOD2314\t8907<<<<<<<<<<<<<<\n7408122F1204159UTO<<<<<<<<<<<6\nERIKSSON<<ANNA<MARIA<<<<<<<<<<",
     "illegalCharacter", 1, 11),
    ("struct-punctuation", "an apostrophe in the name",
     "P<IRLO'SULLIVAN<<LAUREN<<<<<<<<<<<<<<<<<<<<<\nXN50042162IRL8805049F2309154<<<<<<<<<<<<<<<6",
     "illegalCharacter", 1, 7),
]

# Published OCR examples (cheminfo/mrz autocorrection tests) and seeded OCR twins.
OCR_PUBLISHED = [
    ("ocr-cheminfo-td3", CHEMINFO + " td3 'Use autocorrection'",
     ["P<UT0ERIK55ON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO740BIZZF12041S9ZE184226B<<<<<1O"],
     "icao-td3-utopia"),
    ("ocr-cheminfo-td1", CHEMINFO + " td1 'Use autocorrection'",
     ["IDCHEA1234567<6<<<<<<<<<<<<<<<", "75IOZ56M2009018CHE<<<<<<<<<<<8", "5M1TH<<J0HN<AL8ERT<<<<<<<<<<<<"],
     "che-id"),
    ("ocr-cheminfo-fra", CHEMINFO + " frenchNationalId 'Use autocorrect'",
     ["1DFRATE5T<NAME<<<<<<<<<<<<<<<<0CHE02", "I7I0GVA123451RO8ERTA<<<<<<<9IIZ3IIF2"],
     "fra-id-1988-office-code"),
]

LETTER_FOR_DIGIT = {"0": "O", "1": "I", "2": "Z", "5": "S", "6": "G", "8": "B"}
DIGIT_FOR_LETTER = {"O": "0", "I": "1", "Z": "2", "S": "5", "G": "6", "B": "8"}


def ocr_twins(rng, by_id):
    """Seeded OCR confusions of the class-forced kind (a letter in a date or check digit, a digit
    in a name or code): each has exactly one reading back, the original."""
    twins = []
    bases = ["icao-td3-utopia", "icao-td1-utopia", "icao-td2-utopia", "nld-passport-2014", "esp-id-specimen",
             "deu-passport-2017", "gbr-passport-specimen", "swe-id-specimen", "can-passport-specimen",
             "cze-passport-specimen", "ita-id-2022-specimen", "est-id"]
    for n, base in enumerate(bases):
        lines = by_id[base][2]
        fmt = detect(lines)
        L = LAYOUTS[fmt]
        digit_positions = []
        for key in ("dob", "doe"):
            line, start, length = L[key]
            digit_positions += [(line, start + i) for i in range(length)]
        for key in ("dobcd", "doecd", "comp"):
            if L.get(key):
                digit_positions.append(L[key])
        letter_positions = []
        line, start, length = L["name"]
        letter_positions += [(line, start + i) for i in range(length)]
        choices = [p for p in digit_positions if lines[p[0]][p[1]] in LETTER_FOR_DIGIT]
        choices += [p for p in letter_positions if lines[p[0]][p[1]] in DIGIT_FOR_LETTER]
        picked = rng.sample(choices, min(len(choices), 2 + n % 3))
        bad = list(lines)
        for (line, col) in picked:
            c = bad[line][col]
            bad = with_char(bad, line, col, LETTER_FOR_DIGIT.get(c) or DIGIT_FOR_LETTER[c])
        twins.append(("ocr-twin-%s" % base, "derived: %s with %d seeded OCR confusions (seed %d)" % (base, len(picked), SEED),
                      bad, base))
    return twins


def main():
    rng = random.Random(SEED)
    by_id = {s[0]: s for s in SPECIMENS}
    assert len(by_id) == len(SPECIMENS), "duplicate ids"

    def case(id_, source, lines, published=None):
        expected = read(lines)
        if published:
            for key, val in published.items():
                assert expected["fields"][key] == val, (id_, key, expected["fields"][key], val)
        out = dict(id=id_, source=source, lines=lines, expected=expected)
        if published:
            out["published"] = published
        return out

    specimens = [case(i, s, l, p) for i, s, l, p in SPECIMENS]
    for c in specimens:
        assert c["expected"]["validWithDeviations"], (c["id"], c["expected"]["errors"])
    invalid = [case(i, s, l) for i, s, l in PUBLISHED_INVALID]
    for c in invalid:
        assert not c["expected"]["valid"], c["id"]
    invalid += [case(i, s, l) for i, s, l in bad_check_digit_cases()]
    tricky = []
    for id_, desc, base, edits in TRICKY:
        lines = by_id[base][2]
        for line, col, ch in edits:
            lines = with_char(lines, line, col, ch)
        tricky.append(case(id_, "derived: %s, %s" % (base, desc), lines))
    tricky += [case(i, s, l) for i, s, l in generated_cases(rng)]
    structural = [dict(id=i, source="hand-written: " + d, text=t,
                       expected=dict(kind=k, line=ln, column=col)) for i, d, t, k, ln, col in STRUCTURAL]
    ocr = []
    for id_, source, lines, base in OCR_PUBLISHED + ocr_twins(rng, by_id):
        original = by_id[base][2]
        changes = [dict(line=li + 1, column=ci + 1, **{"from": lines[li][ci], "to": original[li][ci]})
                   for li in range(len(lines)) for ci in range(len(lines[li])) if lines[li][ci] != original[li][ci]]
        ocr.append(dict(id=id_, source=source, lines=lines,
                        expected=dict(outcome="corrected", lines=original, changes=changes)))

    meta = dict(referenceDate="%04d-%02d-%02d" % REFERENCE_DATE, generator="TestVectors/mrz/make_vectors.py",
                seed=SEED)
    files = {"specimens.json": specimens, "invalid.json": invalid, "tricky.json": tricky,
             "structural.json": structural, "ocr.json": ocr}
    for name, cases in files.items():
        (HERE / name).write_text(json.dumps(dict(meta, cases=cases), indent=1, ensure_ascii=False) + "\n")
        print(name, len(cases))
    states = {c["expected"]["fields"]["issuingState"] for c in specimens}
    print("total", sum(len(c) for c in files.values()), "issuing states in specimens:", len(states), sorted(states))
    # A plain-text sample for the README's first command.
    sample = "\n\n".join("# %s — %s\n%s" % (c["id"], c["source"], "\n".join(c["lines"])) for c in specimens[:8])
    (HERE / "samples.txt").write_text("# Sample MRZs for the README's first command, written by make_vectors.py.\n"
                                      "# Each record: a comment naming its source, then the MRZ lines.\n\n" + sample + "\n")


if __name__ == "__main__":
    main()
