enum Help {
    static let overview = """
    idkit — read the machine-readable data of identity documents

    USAGE
      idkit validate [options] [MRZ… | FILE… | -]   parse and check ICAO 9303 MRZs
      idkit aamva [--json] [--strict] [FILE… | -]  parse raw AAMVA DL/ID barcode payloads
      idkit barcode [--json] IMAGE…                decode barcodes (PDF417, QR, 1D) in PNG/JPEG/PGM
      idkit help validate|aamva|barcode            options and examples
      idkit --version

    EXIT STATUS
      0 every input valid · 1 some invalid (or no barcode) · 64 usage error · 66 unreadable input

    """

    static let validate = """
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
    static let aamva = """
    idkit aamva — parse AAMVA DL/ID payloads (US and Canadian driver licence / ID card barcodes)

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

    static let barcode = """
    idkit barcode — decode every barcode in images and parse AAMVA payloads

    USAGE
      idkit barcode [--json] [--max-pixels N] IMAGE…

    INPUT
      PNG, JPEG or binary/ASCII PGM files. PDF417 is read by zxing-cpp after IDKit finds and
      straightens the barcode (any rotation, perspective, mirrored); 1D and QR by zbar and zxing-cpp.

    OPTIONS
      --json          one JSON object per image: {"file", "barcodes": [{"format", "bytes" (base64),
                      "quad", "decoder", "aamva"}], "errors"}
      --max-pixels N  refuse images with more than N pixels (default 40000000)

    EXIT STATUS
      0 every image had a barcode · 1 some had none · 64 usage · 66 unreadable file

    EXAMPLE
      idkit barcode --json TestVectors/pdf417/images/clean-00.png

    """
}

