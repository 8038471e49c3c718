public import IDKitCore
import IDKitAAMVA
import IDKitBarcode

/// What ``BarcodeReport`` writes: an image's barcodes (`idkit barcode --json`, `POST /v1/barcode`,
/// `idkit_barcode_read`), each barcode also in `idkit scan --json`, and the line of Macro PDF417
/// sets that follows the images.
extension BarcodeReport: JSONSchemaDescribed {
    /// One line of `idkit barcode --json`: an image's, or the Macro PDF417 sets after them.
    public static var jsonSchema: JSONSchema {
        JSONSchema.anyOf([imageSchema, macroSetsSchema])
            .described("one line of idkit barcode --json: an image's barcodes, or the Macro PDF417 sets of the call (the line after the images)")
    }

    /// The barcodes of one image, and why reading failed (`errors`, whose kind `errorKind` names
    /// when a reader gives one).
    public static var imageSchema: JSONSchema {
        .object([
            "file": .string,
            "barcodes": .array(barcodeSchema),
            "errors": .array(.string),
            "errorKind": JSONSchema.string.orNull.described("the machine-readable kind of the error in errors (tooLarge, corrupt, unsupportedFormat, …)"),
        ], optional: ["errorKind"]).named("BarcodeImage")
    }

    /// One symbol: its raw bytes (base64), its corners in image pixels, the decoder that read it.
    public static var barcodeSchema: JSONSchema {
        .object([
            "format": .string(of: BarcodeFormat.self),
            "bytes": JSONSchema.string.with("contentEncoding", "base64").described("the raw bytes, control characters kept"),
            "quad": JSONSchema.array(.array(.integer, count: 2), count: 4).described("the symbol's corners, [x, y] in pixels"),
            "decoder": .string(of: BarcodeDecoder.self),
            "isMirrored": .boolean,
            "macro": JSONSchema.object([
                "segmentIndex": JSONSchema.integer.described("0-based"), "segmentCount": JSONSchema.integer.orNull,
                "fileId": .string, "isLast": .boolean,
            ]).named("MacroSegment").orNull.described("a Macro PDF417 segment (ISO/IEC 15438 Annex H)"),
            "aamva": AAMVAReport.jsonSchema.orNull,
        ]).named("Barcode")
    }

    /// `{"macroSets": [...]}`: the segments of one call joined by file id.
    public static var macroSetsSchema: JSONSchema {
        .object(["macroSets": .array(.object([
            "fileId": .string, "segmentCount": JSONSchema.integer.orNull,
            "segmentsFound": .array(.integer), "isComplete": .boolean,
            "bytes": JSONSchema.string.with("contentEncoding", "base64").orNull.described("the joined file; null when incomplete"),
            "aamva": AAMVAReport.jsonSchema.orNull,
        ]))]).named("MacroSets")
    }
}
