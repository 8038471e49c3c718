enum Help {
    static let overview = """
    idkit — read the machine-readable data of identity documents

    USAGE
      idkit validate [options] [MRZ… | FILE… | -]   parse and check ICAO 9303 MRZs
      idkit help validate                          options and examples
      idkit --version

    EXIT STATUS
      0 every MRZ valid · 1 some invalid · 64 usage error · 66 unreadable input

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
