package enum Help {
    package static let overview = """
    idkit — read the machine-readable data of identity documents

    USAGE
      idkit validate [options] [MRZ… | FILE… | -]   parse and check ICAO 9303 MRZs
      idkit aamva [--json] [--strict] [FILE… | -]  parse raw AAMVA DL/ID barcode payloads
      idkit barcode [--json] IMAGE…                decode barcodes (PDF417, QR, 1D) in image files
      idkit merge [--json] [redaction] FILE|-      one document result from MRZ, barcode and VIZ
      idkit bac [--json] MRZ-LINE… | --document-number N --birth YYMMDD --expiry YYMMDD
                                                   chip access keys (BAC, PACE K_π) and BAC readiness
      idkit scan [--json] [--fuse] [--annotate DIR] [--crop DIR] IMAGE…   find documents, read their MRZ
      idkit serve [--listen HOST:PORT] [--token-file F] [--tls-cert F --tls-key F] …   the HTTP service
      idkit chip verify --sod F --dg F… | DIR  [--csca DIR|F | --masterlist F]   passive authentication
      idkit chip apdu --ks-enc K --ks-mac K --ssc S --wrap APDU | --unwrap APDU   secure messaging
      idkit help validate|aamva|barcode|merge|bac|scan|serve|chip  options and examples
      idkit --version

    EXIT STATUS
      0 every input valid · 1 some invalid (or no barcode) · 64 usage error · 66 unreadable input

    """

    package static let validate = """
    idkit validate — parse and validate ICAO 9303 machine readable zones

    USAGE
      idkit validate [--json] [--correct] [--strict] [--accept-deviations] [--reference-date YYYY-MM-DD] [INPUT…]

    INPUT
      MRZ lines as arguments (one argument per line, or one argument with the lines separated by
      newlines); FILE paths; or '-' for standard input. With no input, standard input is read.
      Files and standard input are streams of many MRZs: records separated by blank lines (MRZs
      written back to back are split by line count: 3 lines of 30, 2 of 36 or 44), or one JSON
      object per line: {"mrz": "LINE1\\nLINE2"} or {"lines": ["LINE1", "LINE2"]}, with an optional
      "id" that is echoed back. Lines starting with '#' are comments. Streams are read record by
      record, never loaded whole; a line over 1024 bytes is reported and skipped.

    OPTIONS
      --json                 one JSON object per MRZ, one per line (the documented contract)
      --correct              correct OCR confusions guided by the check digits, show what changed
      --strict               count an MRZ with warnings (impossible dates, digits in codes or
                             names, unknown country codes, bad sex) as invalid for the exit status
      --accept-deviations    count known issuer deviations (e.g. Belgian long-number check digits)
                             as valid for the exit status
      --reference-date D     resolve two-digit years around D (default: today, UTC)
      -h, --help             this help

    EXAMPLES
      idkit validate 'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<' \\
                     'L898902C36UTO7408122F1204159ZE184226B<<<<<10'
      idkit validate --json TestVectors/mrz/samples.txt
      printf '%s\\n' "$LINE1" "$LINE2" | idkit validate --correct -
      idkit validate --json - < stream.txt > results.jsonl

    EXIT STATUS
      0 every MRZ valid · 1 some invalid or unreadable as MRZ · 64 usage error · 66 unreadable input

    """
}

extension Help {
    package static let serve = """
    idkit serve — the HTTP service: the command line's JSON contracts over HTTP (libmicrohttpd)

    USAGE
      idkit serve [--listen HOST:PORT] [--threads N] [--queue N] [--max-body-bytes N] [--timeout-s N]
                  [--max-connections N] [--token-file FILE | --insecure-no-auth]
                  [--tls-cert FILE --tls-key FILE] [--reference-date YYYY-MM-DD]
                  [--shutdown-timeout-s N] [--redaction FILE] [--csca F|DIR | --masterlist F [--crl F|DIR]]
                  [--no-access-log]

    ROUTES
      POST /v1/mrz     text/plain or application/x-ndjson (records as 'idkit validate' reads a file;
                       answer: NDJSON, one 'validate --json' line per record) or application/json
                       ({"mrz"|"lines", "id", "correct", "strict", "referenceDate"}: one line);
                       options also as query parameters (?correct&strict&referenceDate=YYYY-MM-DD)
      POST /v1/aamva   the raw payload (application/octet-stream) or {"payload": base64}: the JSON
                       of 'idkit aamva --json'
      POST /v1/barcode, /v1/scan   an image (any format idkit reads): the JSON of 'idkit barcode
                       --json' and 'idkit scan --json' ("file": "-"); ?pdf417, ?barcodes=false,
                       ?referenceDate=YYYY-MM-DD
      GET  /healthz, /readyz (503 while shutting down), /version, /metrics (Prometheus)
      Errors are application/problem+json (RFC 9457): 400 bad input, 401 no or wrong token,
      404, 405, 413 body too large, 415 unsupported media type or image format, 422 an image with
      no document, 503 (Retry-After) when the queue is full.

    OPTIONS
      --listen HOST:PORT     address and port (default 127.0.0.1:8080; [::1]:8080 for IPv6; port 0:
                             any free port, printed at start)
      --threads N            the server's threads, and image requests (scan, barcode) worked on at
                             once on its worker pool (default: the cores)
      --queue N              image requests that may wait for a worker (default 64; their
                             connections held without a thread); more are answered 503 with
                             Retry-After
      --max-body-bytes N     larger bodies get 413 (default 33554432)
      --timeout-s N          idle connections are closed after N seconds (default 30)
      --max-connections N    connections at once (default 1024)
      --token-file FILE      clients must send 'Authorization: Bearer <token>' (the file's text,
                             at least 16 characters); compared in constant time
      --insecure-no-auth     serve on a non-loopback address without a token (refused otherwise)
      --tls-cert/--tls-key   HTTPS with this PEM certificate and key
      --shutdown-timeout-s N on SIGTERM/SIGINT, wait up to N seconds for requests in flight (10)
      --redaction FILE       a redaction policy for every answer (JSON: {"default": {"mode",
                             "fields", "documentNumber", "redactMRZ", "redactBarcode", "redactFace"},
                             "rules": [{"country", "region", "type", "settings"}]}); applied by /v1/merge
                             and /v1/scan; /v1/mrz, /v1/aamva and /v1/barcode then answer 403
      --csca F|DIR, --masterlist F, --crl F|DIR
                             the CSCAs (and their CRLs) the chip files sent to /v1/merge ("chip":
                             [base64 EF files]) must chain to, read once at start
      --no-access-log        no JSON access-log lines on standard error (they never hold a name,
                             number, MRZ, payload or image: route, status, sizes, time)

    EXAMPLE
      idkit serve --listen 127.0.0.1:8080 &
      curl -s --data-binary @TestVectors/mrz/samples.txt -H 'Content-Type: text/plain' \
           http://127.0.0.1:8080/v1/mrz

    """

    package static let aamva = """
    idkit aamva — parse AAMVA DL/ID payloads (US and Canadian driver license / ID card barcodes)

    USAGE
      idkit aamva [--json] [--strict] [FILE… | -]

    INPUT
      Each FILE holds one raw payload exactly as a scanner delivered it (bytes, control characters
      included); '-' or no FILE reads standard input. Damaged payloads (wrong subfile offsets, lost
      separators, CRLF, leading junk, magnetic-stripe tracks) are read with warnings.

    OPTIONS
      --json     one JSON object per payload: version, jurisdictionVersion, iin, jurisdiction,
                 country, elements, subfiles, fields (ISO dates, heightCm, weightKg, ...), warnings
      --strict   warnings make the exit status 1

    EXIT STATUS
      0 parsed · 1 not an AAMVA payload (or warnings with --strict) · 64 usage · 66 unreadable

    EXAMPLE
      idkit aamva --json TestVectors/aamva/public/IdParser__Licenses__CA.txt

    """

    package static let barcode = """
    idkit barcode — decode every barcode in images and parse AAMVA payloads

    USAGE
      idkit barcode [--json] [--pdf417] [--max-pixels N] IMAGE…

    INPUT
      PNG, JPEG, binary/ASCII PGM, BMP, TIFF, WebP, GIF, HEIC or JPEG 2000 files. PDF417 is read by zxing-cpp
      after IDKit finds and straightens the barcode (any rotation, perspective, mirrored); 1D and QR
      by zbar and zxing-cpp.

    OPTIONS
      --json          one JSON object per image: {"file", "barcodes": [{"format", "bytes" (base64),
                      "quad", "decoder", "aamva"}], "errors", "errorKind"}; errorKind is why
                      the image could not be read (tooLarge, corrupt, unsupportedFormat, …) or null
      --pdf417        PDF417 only: no 1D or QR search
      --max-pixels N  refuse images with more than N pixels (default 40000000)

    EXIT STATUS
      0 every image had a barcode · 1 some had none · 64 usage · 66 an image that cannot be read
      (corrupt, too large, unsupported: docs/errors.md) · 70 a decoder failed

    EXAMPLE
      idkit barcode --json TestVectors/pdf417/images/clean-00.png

    """

    package static let chip = """
    idkit chip verify — passive authentication of an ePassport's chip files (ICAO 9303-10, 9303-11 §5.1)

    USAGE
      idkit chip verify [--json] --sod FILE [--dg FILE…] [--csca DIR|FILE | --masterlist FILE] [--crl DIR|FILE]
                        [--reference-date YYYY-MM-DD] [--face-out FILE] [--mrz LINES]
                        [--aa-challenge HEX --aa-signature HEX [--aa-hash SHA-256]]
      idkit chip verify [--json] DIR [--csca …]          (a folder of EF files: EF.SOD, EF.COM, EF.DGn,
                                                          EF.CardAccess, EF.CardSecurity)
      idkit chip apdu [--json] [--cipher 3DES|AES] --ks-enc HEX --ks-mac HEX --ssc HEX (--wrap APDU | --unwrap APDU)

    Each file is told by its first tag (77 EF.SOD, 60 EF.COM, 61–70 the data groups, 31
    EF.CardAccess, 30 EF.CardSecurity), not by its name. The SOD is read against 9303-10 (SignedData v3, the LDSSecurityObject), each data group
    given is hashed and compared with its entry, the SOD's signature is verified with the Document
    Signer certificate it carries (RSA, RSA-PSS, ECDSA with named or explicit curves; SHA-1 to
    SHA-512), and the Document Signer is chained to a CSCA from --csca (DER or PEM files) or from a
    CSCA master list whose own signature verifies. The result is passed only when every check is
    valid; incomplete when one was not performed (no CSCA for the issuer, a data group the SOD
    does not list); failed when one is invalid. DG1 (the MRZ), DG2 (faces, ISO/IEC 19794-5 or
    39794-5), DG7 (signature images), DG11, DG12, DG14 and EF.CardAccess (SecurityInfos), DG15 (the
    active-authentication key) and EF.COM are read and reported. EF.CardSecurity (signed
    SecurityInfos) is checked as the SOD is: structure, signature, chain. With
    the challenge the terminal sent and the chip's answer, active authentication is verified with
    the DG15 key (RSA with ISO/IEC 9796-2 scheme 1, or plain ECDSA with --aa-hash, SHA-256 by
    default). With --crl, a Document Signer that a CRL of its CSCA (verified with the CSCA's key)
    lists is revoked: the chain is invalid.

    idkit chip apdu wraps one command APDU (short form) or checks and unwraps one response with the
    session keys of BAC or PACE and the send sequence counter (ICAO 9303-11 §9.8; 3DES: 8-byte SSC,
    AES: 16-byte SSC), and prints the new counter, which the next call is given: so a backend can
    drive a chip read through a phone that only relays bytes. A response whose MAC does not verify
    is refused (exit 1, kind macMismatch). JSON: {"apdu", "ssc"} or {"data", "status", "ssc"}.

    OPTIONS
      --json                {"passiveAuthentication": {"result", "dataGroupHashes", "signature",
                            "certificateChain", "documentSigner", "csca", "reasons", "warnings"},
                            "dataGroups": {"COM", "DG1", "DG2": {"faces"}, "DG11", "DG12"},
                            "mrzMatchesChip", "activeAuthentication": {"result", "reason"} | null, "warnings"}
      --csca DIR|FILE       trusted CSCA certificates (.der, .cer, .crt, .pem)
      --masterlist FILE     an ICAO CSCA master list (its signature is checked)
      --crl DIR|FILE        the CSCAs' certificate revocation lists (.crl, .der, .pem)
      --reference-date D    the date certificates' expiry is judged at (default today; expiry is a warning)
      --face-out FILE       write DG2's first face: a JPEG as stored, a JPEG 2000 decoded to PNG
      --mrz LINES           the printed MRZ, compared with DG1

    EXIT STATUS
      0 passed · 1 failed or incomplete, or the printed MRZ differs · 64 usage · 66 unreadable file

    """

    package static let bac = """
    idkit bac — chip access keys from the MRZ (ICAO 9303-11 BAC, PACE)

    USAGE
      idkit bac [--json] MRZ-LINE… | -
      idkit bac [--json] --document-number N --birth YYMMDD --expiry YYMMDD
      idkit bac [--json] --can DIGITS
      … [--rnd-ic HEX --rnd-ifd HEX --k-ifd HEX [--card-response HEX]]

    Prints MRZ_information, K_seed, K_enc and K_mac (upper-case hex, DES parity adjusted), whether
    the MRZ is ready for a chip read (document number, birth and expiry with valid check digits),
    and PACE's K_π for 3DES and AES-128/192/256. With the card's challenge RND.IC and the terminal's
    RND.IFD and K.IFD it adds the EXTERNAL AUTHENTICATE data (E_IFD ‖ M_IFD); with the card's answer
    (E_IC ‖ M_IC, 40 bytes) it verifies it and prints KS_enc, KS_mac and the SSC.
    Option values may follow as the next argument or after '='.

    OPTIONS
      --json                   {"mrzInformation", "kSeed", "kEnc", "kMac", "bacReady", "paceKPi",
                               "externalAuthenticate", "ksEnc", "ksMac", "ssc"}
      --document-number N      the document number (fillers optional; longer than 9 is used whole)
      --birth YYMMDD           date of birth (`<` for unknown parts)
      --expiry YYMMDD          date of expiry
      --can DIGITS             a card access number: PACE K_π from it
      --rnd-ic HEX             8 bytes from GET CHALLENGE
      --rnd-ifd HEX, --k-ifd HEX   the terminal's 8-byte nonce and 16-byte key half (random in real use)
      --card-response HEX      the EXTERNAL AUTHENTICATE answer without its status word

    EXAMPLES
      idkit bac --document-number L898902C --birth 690806 --expiry 940623
      idkit bac --json I<UTOL898902C<3<<<<<<<<<<<<<<< 6908061F9406236UTO<<<<<<<<<<<2 ERIKSSON<<ANNA<MARIA<<<<<<<<<<

    EXIT STATUS
      0 keys made and BAC-ready · 1 not BAC-ready, bad input or a refused card answer · 64 usage error

    """

    package static let merge = """
    idkit merge — one document result from MRZ, barcode, VIZ and chip readings

    USAGE
      idkit merge [--json] [--reference-date YYYY-MM-DD] [--chip FILE|DIR…] [--csca F|DIR | --masterlist F]
                  [--crl F|DIR] [redaction options] [FILE|-]

    INPUT (JSON, at most 8 MiB)
      {"mrz": "LINE1\\nLINE2" or ["LINE1", "LINE2"], "barcode": "<base64 payload>",
       "viz": {"front": {"lastName": "MÜLLER", "dateOfBirth": "15.03.1982", …}, "back": {…}},
       "chip": ["<base64 EF.SOD>", "<base64 EF.DG1>", …], "referenceDate": "YYYY-MM-DD"}
      Every key is optional. VIZ field names: firstName lastName fullName documentNumber
      personalIdNumber additionalDocumentNumber dateOfBirth dateOfExpiry dateOfIssue sex nationality
      issuingState issuingJurisdiction address. With --chip and no FILE, no input document is read.

    PRIORITY
      The document number from the MRZ when present; every other field from the barcode, else the
      back-side VIZ, else the front-side VIZ, else the MRZ. The chip (DG1, DG11, DG12) comes first
      for every field it holds when its passive authentication passed, and last otherwise (with
      the warning chipNotAuthenticated). Every source's reading is kept.

    OPTIONS
      --json                         {"fields": {name: {"value", "source", "readings"}}, "dataMatch",
                                     "derived", "documentClass", "chipAccess", "chip", "raw", "redacted",
                                     "warnings"}
      --reference-date D             ages and expiry judged on D (default: the input's, else today)
      --chip FILE|DIR                files read from the chip (EF.SOD, EF.DG1, EF.DG2, EF.DG11, EF.DG12, …;
                                     a folder's .bin and EF* files), told apart by their first tag
      --csca F|DIR, --masterlist F   the CSCAs the chip's Document Signer must chain to; --crl F|DIR their CRLs
      --redact F1,F2…                redact these fields everywhere in the result
      --document-number-visible P,S  redact the document number but keep P leading, S trailing characters
      --redact-mrz, --redact-barcode withhold the raw MRZ lines / barcode bytes
      --redact-face                  withhold the chip's face images (their type and size stay)
      --redact-mode MODE             none, resultFieldsOnly, imageOnly, fullResult (default with any
                                     redaction option: fullResult)

    EXAMPLE
      echo '{"mrz": ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"],
             "viz": {"front": {"dateOfBirth": "12 AUG 1974"}}}' | idkit merge --redact dateOfBirth -

    EXIT STATUS
      0 merged, no data mismatch · 1 a data mismatch, or input that cannot be used · 64 usage error
      66 unreadable input

    """

    package static let scan = """
    idkit scan — find and read the MRZ in photos and scans, judge the image

    USAGE
      idkit scan [--json] [--fuse] [--annotate DIR] [--crop DIR] [--no-barcodes] [--viz] [--sides FRONT BACK] [--max-pixels N]
                 [--reference-date YYYY-MM-DD] IMAGE…

    For each PNG, JPEG, PGM, BMP, TIFF (every page), WebP, GIF (the first frame) or HEIC image,
    turned upright by the orientation it records (EXIF, the TIFF tag, HEIF's rotation): the MRZ
    band at any rotation, its characters read by a trained recognizer (OpenCV dnn) and decoded
    with the check digits, a confidence per character, image quality with capture hints, barcodes
    where a bar field is, and the merged document result (pages after a TIFF's first are reported
    as FILE#page=N). A reading is verified only when it is valid and no other plausible reading,
    any combination of characters, would pass every check digit too, and every character no check
    digit covers is certain; otherwise "unsureFields" names the fields in doubt.

    OPTIONS
      --json              one object per image: {"file", "status", "reason", "reasonKind", "mrz": {"format", "quad",
                          "lines", "confidence", "verified", "unsureFields", "recognizer",
                          "checkDigitCorrections", "parsed"} | null, "quality": {"brightness",
                          "sharpness", "glare", "mrzCharHeightPx", "isSharp", "isGlareFree",
                          "isAdequateResolution", "hints"}, "barcodes", "document", "corners",
                          "confidence", "widthHeightRatio", "documentFormat", "crops", "viz",
                          "documents": [one object per document found, the primary first],
                          "timingsMs"}
      --fuse              the images are frames of one document: combine them per character
      --annotate DIR      write IMAGE.annotated.png with the outlines, band, character boxes and reading
      --crop DIR          decode in color and write IMAGE.document.png (the document straightened,
                          300 dpi for its format) and IMAGE.face.png (its photo), IMAGE.doc2.… for
                          the other documents; the JSON's "crops" name the files
      --no-barcodes       skip barcode reading (faster on images without one)
      --viz               read each document's visual zone too (Tesseract): "viz" holds its text
                          lines and the MRZ's fields found printed there, with "matchesMRZ"; costs
                          about half a second per document
      --sides FRONT BACK  the two images are the front and the back of one card, read as one
                          document: the front's visual zone is read and tied to the back's MRZ
                          by its name, number and date of birth ("sides" says whether they
                          match); a front of another card is status sidesMismatch, never merged
      --redact F1,F2 …    redaction as for 'idkit merge' (--document-number-visible, --redact-mrz,
                          --redact-barcode, --redact-mode); with a result mode the MRZ lines are
                          masked and "parsed" is withheld, with an image mode --annotate blacks out
                          the MRZ band and the barcodes
      --max-pixels N      refuse images above N pixels (default 40000000)

    STATUS ("reasonKind" says why in a word, "reason" in a sentence)
      ok                read and verified
      mrzUncertain      read, not sure enough ("unsureFields" says where): take another photo
      mrzInvalid        read with every character sure, and the MRZ as printed breaks a rule
                        (a check digit, a date, digits in a code; "reasonKind" the first one):
                        another photo does not help
      mrzNotFound       no MRZ in the image
      imageTooSmall     too small to hold a readable MRZ
      unsupportedImage  not an image IDKit decodes ("reasonKind" the image error: corrupt, tooLarge, …)
      sidesMismatch     --sides: the two images are sides of different documents

    EXIT STATUS (several images: the highest)
      0 ok · 1 mrzUncertain · 2 mrzInvalid · 3 mrzNotFound · 4 imageTooSmall · 5 sidesMismatch
      64 usage error · 66 unsupportedImage · 73 an annotation that cannot be written

    """
}
