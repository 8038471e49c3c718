public import IDKitCore
import IDKitDocument
import IDKitDocumentDetection
import IDKitImage
import IDKitMRZ

/// What `json(file:)` writes (DocumentScan+JSON.swift): `idkit scan --json`, `POST /v1/scan`,
/// `idkit_scan` and `idkit.scan`.
extension DocumentScan: JSONSchemaDescribed {
    public static var jsonSchema: JSONSchema {
        let number = JSONSchema.number
        let quality = JSONSchema.object([
            "brightness": number, "sharpness": number.orNull, "glare": number,
            "mrzCharHeightPx": number.orNull.described("the printed cap height of the MRZ"),
            "isSharp": .boolean, "isGlareFree": .boolean, "isAdequateResolution": .boolean,
            "hints": .array(.string(oneOf: qualityHints)),
        ]).named("ImageQuality")
        let timings = JSONSchema.object(["decode": number, "locate": number, "read": number, "barcodes": number,
                                         "detect": number, "viz": number, "front": number, "total": number],
                                        optional: ["decode", "locate", "read", "barcodes", "detect", "viz", "front", "total"])
        let sides = JSONSchema.object([
            "match": JSONSchema.boolean.orNull.described("the front belongs to the back's document (true), to another (false), or the scan cannot tell (null)"),
            "matchedFields": JSONSchema.array(.string(of: DocumentFieldName.self)).described("the front's fields printed with the MRZ's meaning"),
            "reason": JSONSchema.string.orNull.described("why the sides do not match, or why the scan cannot tell"),
            "reasonKind": JSONSchema.string(oneOf: ["otherCard", "differentMRZ", "sameSideTwice", "noMachineReadableSide", "noMRZToMatch",
                                                     "frontUnreadable"]).orNull,
            "swapped": JSONSchema.boolean.described("the MRZ was on the first image: the sides were taken the other way round"),
            "frontCorners": JSONSchema.array(JSONSchema.array(number, count: 2), count: 4).orNull
                .described("the front's outline in the front image's pixels (the whole image when it shows none)"),
            "front": vizSchema.orNull.described("the front's visual zone, quads in the front image's pixels"),
        ]).named("ScanSides")
        return documentSchema.adding([
            "file": JSONSchema.string.described("the image; FILE#page=N for the pages of a multi-page TIFF after the first"),
            "quality": quality.orNull,
            "documents": JSONSchema.array(documentSchema).described("every document found, the primary first"),
            "sides": sides.orNull.described("both sides of one card (--sides FRONT BACK); null for one image"),
            "timingsMs": timings,
        ]).named("Scan")
    }

    /// What one document says: the top-level object (the primary document's) and each entry of
    /// `documents`.
    public static var documentSchema: JSONSchema {
        let number = JSONSchema.number
        let point = JSONSchema.array(number, count: 2)
        let reasonKinds = ["mrzNotFound", "notAnMRZ", "unsureFields", "otherCard", "differentMRZ"] + ScanStatus.allCases.map(\.rawValue)
            + MRZIssue.Code.allCases.map(\.rawValue) + ImageError.Kind.allCases.map(\.rawValue)
        let mrz = JSONSchema.object([
            "format": .string(of: MRZFormat.self),
            "quad": JSONSchema.array(point, count: 4).described("every character read, in image pixels"),
            "lines": .array(.string),
            "confidence": JSONSchema.array(.array(number)).described("per line, per character, 0–1"),
            "verified": .boolean,
            "unsureFields": JSONSchema.array(.string).described("the fields another plausible reading would change"),
            "recognizer": .string(of: MRZRecognizer.self),
            "checkDigitCorrections": .integer,
            "parsed": MRZResult.jsonSchema.orNull,
        ], optional: ["lines", "confidence", "verified", "unsureFields", "recognizer", "checkDigitCorrections"]).named("ScannedMRZ")
        return .object([
            "status": .string(of: ScanStatus.self),
            "reason": JSONSchema.string.orNull.described("why, in a sentence, when the status is not ok"),
            "reasonKind": JSONSchema.string(oneOf: Array(Set(reasonKinds)).sorted()).orNull.described("why, in a word"),
            "mrz": mrz.orNull,
            "barcodes": .array(BarcodeReport.barcodeSchema),
            "document": DocumentResult.jsonSchema.orNull,
            "corners": JSONSchema.array(point, count: 4).orNull.described("the document's outline, top-left first, clockwise, in image pixels"),
            "confidence": number.orNull, "widthHeightRatio": number.orNull,
            "documentFormat": JSONSchema.string(of: DocumentFormat.self).orNull,
            "crops": .object(["document": JSONSchema.string.orNull, "face": JSONSchema.string.orNull,
                              "signature": JSONSchema.string.orNull])
                .described("file names written by --crop, or base64 PNG when /v1/scan?crops asked; null otherwise"),
            "viz": vizSchema.orNull.described("the visual zone, when asked for (--viz, ?viz, \"viz\": true); null otherwise"),
        ]).named("ScannedDocument")
    }

    /// The `viz` member (DocumentScan+VIZJSON.swift).
    static var vizSchema: JSONSchema {
        let number = JSONSchema.number
        let quad = JSONSchema.array(JSONSchema.array(number, count: 2), count: 4).described("in image pixels, top-left first, clockwise")
        let field = JSONSchema.object([
            "text": JSONSchema.string.described("the words as printed"),
            "value": JSONSchema.string.described("a date as YYYY-MM-DD, a number without its spaces, a name as printed"),
            "confidence": number, "quad": quad,
            "matchesMRZ": JSONSchema.boolean.orNull,
        ]).named("VIZField")
        let fields = JSONSchema.map(field, keys: DocumentFieldName.allCases.map(\.rawValue))
        let line = JSONSchema.object(["text": .string, "confidence": number, "quad": quad]).named("VIZLine")
        return JSONSchema.object([
            "side": JSONSchema.string(oneOf: ["front", "back"]),
            "fields": fields,
            "lines": .array(line),
        ]).named("VIZ")
    }

    /// The capture hints of ``ImageQuality`` (ImageQuality.swift).
    static let qualityHints = ["documentNotDetected", "documentPartiallyVisible", "documentTooFar", "documentTooClose",
                               "documentTilted", "documentTooSmall", "brightnessLow", "brightnessHigh", "sharpnessLow", "glareOnMRZ", "mrzCovered"]
}
