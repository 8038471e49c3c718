#!/usr/bin/env python3
"""Writes merge-cases.json: inputs for IDKit's document merge and the results they must give.

Provenance of the inputs:
  * MRZs: the ICAO 9303 Part 4/5 Utopia specimens and the German 2010 ID specimen (MUSTERMANN,
    as in TestVectors/mrz/specimens.json), plus MRZs built here with computed check digits for
    names that need transliteration (MUELLER, GROSSMANN, SOERENSEN).
  * Barcodes: TestVectors/aamva/generated/*.bin (make_payloads.py, seeded), by file name.
  * VIZ readings: written here, as an OCR of the printed zones of those documents would give them,
    with the variations each case tests (date formats, diacritics, a deliberate mismatch).
The expected values follow from the inputs by the rules of issue 4 (priority, data match,
derived values); run `make vectors-document` to rewrite the file. No randomness is involved.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def cd(s):
    v = lambda c: 0 if c == "<" else int(c) if c.isdigit() else ord(c) - 55
    return str(sum(v(c) * (7, 3, 1)[i % 3] for i, c in enumerate(s)) % 10)


def td3(code, state, surname, given, number, nat, dob, sex, doe, personal=""):
    name = surname.replace(" ", "<") + "<<" + given.replace(" ", "<")
    l1 = (code + "<" * (2 - len(code)) + state + name + "<" * 44)[:44]
    num = (number + "<" * 9)[:9]
    pn = (personal + "<" * 14)[:14]
    pcd = cd(pn) if personal else "<"
    body = num + cd(num) + (nat + "<<<")[:3] + dob + cd(dob) + sex + doe + cd(doe) + pn + pcd
    comp = cd(body[0:10] + body[13:20] + body[21:43])
    return [l1, body + comp]


TD3_UTOPIA = ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"]
TD1_UTOPIA = ["I<UTOD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"]
DEU_ID = ["IDD<<T220001293<<<<<<<<<<<<<<<", "6408125<2010315D<<<<<<<<<<<<<4", "MUSTERMANN<<ERIKA<<<<<<<<<<<<<"]
MUELLER = td3("P", "D<<", "MUELLER", "JOERG", "C01X00T47", "D", "820315", "M", "310101")
MULLER = td3("P", "D<<", "MULLER", "JORG", "C01X00T47", "D", "820315", "M", "310101")
MILLER = td3("P", "D<<", "MILLER", "JOERG", "C01X00T47", "D", "820315", "M", "310101")
GROSSMANN = td3("P", "AUT", "GROSSMANN", "ANNA", "P1234567", "AUT", "900101", "F", "300101", "1234567890")
SOERENSEN = td3("P", "DNK", "SOERENSEN", "SOEREN", "201234567", "DNK", "750505", "M", "290909")

CASES = [
    {
        "id": "td3-specimen-with-front-viz",
        "source": "ICAO 9303-4 Utopia TD3 specimen; VIZ as printed on the specimen's data page",
        "input": {"mrz": TD3_UTOPIA, "referenceDate": "2010-06-01",
                  "viz": {"front": {"lastName": "ERIKSSON", "firstName": "ANNA MARIA", "documentNumber": "L898902C3",
                                    "dateOfBirth": "12 AUG/AOUT 74", "dateOfExpiry": "15 APR/AVR 12", "sex": "F",
                                    "nationality": "UTO", "dateOfIssue": "16 APR/AVR 07"}}},
        "expected": {
            "fields": {"documentNumber": ["L898902C3", "mrz"], "lastName": ["ERIKSSON", "vizFront"],
                       "firstName": ["ANNA MARIA", "vizFront"], "fullName": ["ANNA MARIA ERIKSSON", "mrz"],
                       "dateOfBirth": ["1974-08-12", "vizFront"], "dateOfExpiry": ["2012-04-15", "vizFront"],
                       "dateOfIssue": ["2007-04-16", "vizFront"], "sex": ["F", "vizFront"],
                       "nationality": ["UTO", "vizFront"], "issuingState": ["UTO", "mrz"],
                       "personalIdNumber": ["ZE184226B", "mrz"], "address": [None, None],
                       "issuingJurisdiction": [None, None]},
            "readings": {"dateOfBirth": {"mrz": "1974-08-12", "vizFront": "1974-08-12"}},
            "dataMatch": {"documentNumber": "match", "dateOfBirth": "match", "dateOfExpiry": "match",
                          "wholeDocument": "match", "lastName": "match", "firstName": "match"},
            "derived": {"age": 35, "isUnder18": False, "isUnder21": False, "isExpired": False},
            "documentClass": {"country": "UTO", "region": None, "type": "passport"},
            "bacReady": True,
        },
    },
    {
        "id": "td3-specimen-birth-date-mismatch",
        "source": "ICAO 9303-4 Utopia TD3 specimen; a VIZ birth date one day off (12.08 vs 13.08.1974)",
        "input": {"mrz": TD3_UTOPIA, "referenceDate": "2013-01-01",
                  "viz": {"back": {"dateOfBirth": "13.08.1974", "documentNumber": "L 898902 C3"}}},
        "expected": {
            "fields": {"dateOfBirth": ["1974-08-13", "vizBack"], "documentNumber": ["L898902C3", "mrz"],
                       "dateOfExpiry": ["2012-04-15", "mrz"]},
            "dataMatch": {"documentNumber": "match", "dateOfBirth": "mismatch", "dateOfExpiry": "notPerformed",
                          "wholeDocument": "mismatch"},
            "derived": {"age": 38, "isExpired": True},
        },
    },
    {
        "id": "td1-specimen-alone",
        "source": "ICAO 9303-5 Utopia TD1 specimen, no other source",
        "input": {"mrz": TD1_UTOPIA, "referenceDate": "2025-01-01"},
        "expected": {
            "fields": {"documentNumber": ["D23145890", "mrz"], "lastName": ["ERIKSSON", "mrz"],
                       "personalIdNumber": [None, None], "dateOfIssue": [None, None], "sex": ["F", "mrz"]},
            "dataMatch": {"documentNumber": "notPerformed", "dateOfBirth": "notPerformed",
                          "dateOfExpiry": "notPerformed", "wholeDocument": "notPerformed"},
            "derived": {"age": 50, "isExpired": True},
            "documentClass": {"country": "UTO", "region": None, "type": "identityCard"},
            "bacReady": True,
        },
    },
    {
        "id": "td3-empty-personal-number-is-empty-not-absent",
        "source": "MRZ built by make_cases.py (MUELLER, no personal number)",
        "input": {"mrz": MUELLER, "referenceDate": "2025-01-01"},
        "expected": {
            "fields": {"personalIdNumber": ["", "mrz"], "address": [None, None], "nationality": ["D", "mrz"]},
            "documentClass": {"country": "DEU", "region": None, "type": "passport"},
        },
    },
    {
        "id": "umlaut-viz-matches-ue-mrz",
        "source": "MRZ built by make_cases.py (MUELLER<<JOERG); VIZ with the printed umlauts",
        "input": {"mrz": MUELLER, "referenceDate": "2025-01-01",
                  "viz": {"front": {"lastName": "Müller", "firstName": "Jörg", "dateOfBirth": "15.03.1982"}}},
        "expected": {"fields": {"lastName": ["Müller", "vizFront"]},
                     "dataMatch": {"lastName": "match", "firstName": "match", "dateOfBirth": "match"}},
    },
    {
        "id": "umlaut-viz-matches-plain-vowel-mrz",
        "source": "MRZ built by make_cases.py (MULLER<<JORG: the Ü→U form 9303-3 also allows)",
        "input": {"mrz": MULLER, "referenceDate": "2025-01-01",
                  "viz": {"front": {"lastName": "MÜLLER", "firstName": "JÖRG"}}},
        "expected": {"dataMatch": {"lastName": "match", "firstName": "match"}},
    },
    {
        "id": "different-name-is-a-mismatch",
        "source": "MRZ built by make_cases.py (MILLER); VIZ MÜLLER",
        "input": {"mrz": MILLER, "referenceDate": "2025-01-01", "viz": {"front": {"lastName": "MÜLLER", "firstName": "JÖRG"}}},
        "expected": {"dataMatch": {"lastName": "mismatch", "firstName": "match", "wholeDocument": "notPerformed"}},
    },
    {
        "id": "sharp-s-and-slashed-o",
        "source": "MRZs built by make_cases.py (GROSSMANN, SOERENSEN); VIZ with ß and Ø",
        "input": {"mrz": GROSSMANN, "referenceDate": "2025-01-01", "viz": {"front": {"lastName": "Großmann"}}},
        "expected": {"dataMatch": {"lastName": "match"}, "fields": {"personalIdNumber": ["1234567890", "mrz"]}},
    },
    {
        "id": "slashed-o",
        "source": "MRZ built by make_cases.py (SOERENSEN<<SOEREN); VIZ SØRENSEN SØREN",
        "input": {"mrz": SOERENSEN, "referenceDate": "2025-01-01",
                  "viz": {"front": {"lastName": "SØRENSEN", "firstName": "Søren", "dateOfExpiry": "09/09/2029"}}},
        "expected": {"dataMatch": {"lastName": "match", "firstName": "match", "dateOfExpiry": "match"}},
    },
    {
        "id": "german-id-viz-back-and-front",
        "source": "German ID 2010 specimen (MUSTERMANN ERIKA, T22000129); VIZ of both sides",
        "input": {"mrz": DEU_ID, "referenceDate": "2011-01-01",
                  "viz": {"front": {"lastName": "MUSTERMANN", "firstName": "ERIKA", "dateOfBirth": "12.08.1964",
                                    "documentNumber": "T22000129", "nationality": "DEUTSCH"},
                          "back": {"address": "HEIDESTRASSE 17, 51147 KÖLN", "dateOfIssue": "01.11.2010"}}},
        "expected": {
            "fields": {"address": ["HEIDESTRASSE 17, 51147 KÖLN", "vizBack"], "dateOfIssue": ["2010-11-01", "vizBack"],
                       "nationality": ["DEUTSCH", "vizFront"], "documentNumber": ["T22000129", "mrz"]},
            "readings": {"nationality": {"mrz": "D", "vizFront": "DEUTSCH"}},
            "dataMatch": {"documentNumber": "match", "dateOfBirth": "match", "dateOfExpiry": "notPerformed", "wholeDocument": "match"},
            "derived": {"age": 46, "isExpired": False},
            "documentClass": {"country": "DEU", "region": None, "type": "identityCard"},
            "bacReady": True,
        },
    },
    {
        "id": "aamva-licence-with-us-viz",
        "source": "TestVectors/aamva/generated/v10-dl-va.bin (make_payloads.py, seeded); VIZ in US date order",
        "input": {"barcodeFile": "../aamva/generated/v10-dl-va.bin", "referenceDate": "2025-06-01",
                  "viz": {"front": {"documentNumber": "Y17895625", "dateOfBirth": "03/16/1951", "dateOfExpiry": "03/16/2030",
                                    "lastName": "GARCIA"}}},
        "expected": {
            "fields": {"documentNumber": ["Y17895625", "barcode"], "lastName": ["GARCIA", "barcode"],
                       "firstName": ["JAMES LEE", "barcode"], "dateOfBirth": ["1951-03-16", "barcode"],
                       "dateOfIssue": ["2023-09-20", "barcode"], "address": ["8721 ELM ST, ALBANY, VA 77837", "barcode"],
                       "issuingState": ["USA", "barcode"], "issuingJurisdiction": ["VA", "barcode"],
                       "nationality": [None, None]},
            "dataMatch": {"documentNumber": "match", "dateOfBirth": "match", "dateOfExpiry": "match", "wholeDocument": "match"},
            "derived": {"age": 74, "isUnder21": False, "isExpired": False, "isPermanentExpiry": False},
            "documentClass": {"country": "USA", "region": "VA", "type": "driverLicense"},
        },
    },
    {
        "id": "aamva-licence-number-disagrees",
        "source": "TestVectors/aamva/generated/v10-dl-va.bin; a VIZ document number with one digit changed",
        "input": {"barcodeFile": "../aamva/generated/v10-dl-va.bin", "referenceDate": "2025-06-01",
                  "viz": {"back": {"documentNumber": "Y17895626"}}},
        "expected": {"fields": {"documentNumber": ["Y17895625", "barcode"]},
                     "dataMatch": {"documentNumber": "mismatch", "wholeDocument": "mismatch"}},
    },
    {
        "id": "viz-only-permanent-expiry",
        "source": "VIZ only, written here: a document that never expires",
        "input": {"referenceDate": "2025-01-01",
                  "viz": {"front": {"lastName": "DOE", "firstName": "", "dateOfBirth": "2010-02-03", "dateOfExpiry": "PERMANENT"}}},
        "expected": {
            "fields": {"firstName": ["", "vizFront"], "lastName": ["DOE", "vizFront"], "documentNumber": [None, None]},
            "derived": {"age": 14, "isUnder18": True, "isUnder21": True, "isExpired": False, "isPermanentExpiry": True},
            "documentClass": None,
        },
    },
    {
        "id": "empty-barcode-value-loses-to-viz-text",
        "source": "VIZ back with an empty value and VIZ front with text, written here: non-empty wins, priority among non-empty",
        "input": {"referenceDate": "2025-01-01",
                  "viz": {"back": {"lastName": ""}, "front": {"lastName": "ROE"}}},
        "expected": {"fields": {"lastName": ["ROE", "vizFront"]}, "readings": {"lastName": {"vizBack": "", "vizFront": "ROE"}}},
    },
]


def main():
    out = {
        "generator": "TestVectors/document/make_cases.py",
        "provenance": __doc__.strip(),
        "cases": CASES,
    }
    with open(os.path.join(HERE, "merge-cases.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
