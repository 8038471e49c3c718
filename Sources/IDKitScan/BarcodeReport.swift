import Foundation
import IDKitAAMVA
import IDKitBarcode
import IDKitCore
import IDKitImage

/// The JSON contract of the barcodes found in an image, with the AAMVA payload parsed where a
/// PDF417 holds one: the whole of `idkit barcode --json` and the `barcodes` member of `idkit scan
/// --json`. Here, with the readers it reports on, so that every front end writes the same bytes.
public enum BarcodeReport {
    /// The `idkit barcode --json` contract (docs/contracts.md): `{"file", "barcodes": [{"format", "bytes",
    /// "quad", "decoder", "isMirrored", "macro", "aamva"}], "errors", "errorKind"}`.
    /// The barcodes of an encoded image (any format the image layer reads, turned upright by its
    /// EXIF orientation) as ``json(file:barcodes:errors:)``: what `POST /v1/barcode` and
    /// `idkit_barcode_read` answer. An image that cannot be decoded throws.
    public static func json(imageData: [UInt8], file: String = "-", pdf417: Bool = false) throws(ImageError) -> String {
        _ = try ImageDecoder.Format.required(imageData)
        let image = try ImageDecoder.decodeWithOrientation(imageData).image
        var failure: BarcodeError?
        var barcodes: [Barcode] = []
        do { barcodes = try BarcodeReader(options: pdf417 ? .pdf417 : BarcodeReader.Options()).read(image) } catch { failure = error }
        return json(file: file, barcodes: barcodes, error: failure)
    }

    /// One image's report; `error` is why the image could not be read (it cannot be decoded, or a
    /// decoder failed): its message in `errors`, its kind in `errorKind` (`null` without one), the
    /// kind every other front end reports for the same input.
    public static func json(file: String, barcodes: [Barcode], error: (any ClassifiedError)? = nil) -> String {
        var w = JSONWriter(capacity: 4096)
        w.beginObject()
        w.key("file"); w.string(file)
        w.key("barcodes"); writeBarcodes(barcodes, to: &w)
        w.key("errors"); w.beginArray()
        if let error { w.string(error.message) }
        w.endArray()
        w.key("errorKind"); if let error { w.string(error.kindName) } else { w.null() }
        w.endObject()
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// The `barcodes` array of the contract, also part of `idkit scan --json`.
    public static func writeBarcodes(_ barcodes: [Barcode], to w: inout JSONWriter) {
        w.beginArray()
        for b in barcodes {
            w.beginObject()
            w.key("format"); w.string(b.format.rawValue)
            w.key("bytes"); w.string(Data(b.bytes).base64EncodedString())
            w.key("quad"); w.beginArray()
            for p in b.quad.corners {
                w.beginArray(); w.int(Int(p.x.rounded())); w.int(Int(p.y.rounded())); w.endArray()
            }
            w.endArray()
            w.key("decoder"); w.string(b.decoder.rawValue)
            w.key("isMirrored"); w.bool(b.isMirrored)
            w.key("macro")
            if let m = b.macro {
                w.beginObject()
                w.key("segmentIndex"); w.int(m.segmentIndex)
                w.key("segmentCount"); if let n = m.segmentCount { w.int(n) } else { w.null() }
                w.key("fileId"); w.string(m.fileId)
                w.key("isLast"); w.bool(m.isLast)
                w.endObject()
            } else {
                w.null()
            }
            w.key("aamva")
            writeAAMVA(b.format == .pdf417 ? b.bytes : nil, to: &w)
            w.endObject()
        }
        w.endArray()
    }

    /// The parsed AAMVA payload of `bytes`, or `null` when they hold none.
    static func writeAAMVA(_ bytes: [UInt8]?, to w: inout JSONWriter) {
        if let bytes, let payload = try? AAMVAParser().parse(bytes) {
            w.raw(Array(AAMVAReport(payload).jsonString().utf8))
        } else {
            w.null()
        }
    }

    /// The Macro PDF417 sets of one call (``MacroSegment/sets(in:)``), the line `idkit barcode
    /// --json` adds after the images when they hold segments: `{"macroSets": [{"fileId",
    /// "segmentCount", "segmentsFound", "isComplete", "bytes" (base64 of the joined file, null when
    /// incomplete), "aamva"}]}`.
    public static func macroSetsJSON(_ sets: [MacroSet]) -> String {
        var w = JSONWriter(capacity: 4096)
        w.beginObject()
        w.key("macroSets"); w.beginArray()
        for set in sets {
            w.beginObject()
            w.key("fileId"); w.string(set.fileId)
            w.key("segmentCount"); if let n = set.segmentCount { w.int(n) } else { w.null() }
            w.key("segmentsFound"); w.beginArray()
            for i in set.segmentsFound { w.int(i) }
            w.endArray()
            w.key("isComplete"); w.bool(set.isComplete)
            w.key("bytes"); if let b = set.bytes { w.string(Data(b).base64EncodedString()) } else { w.null() }
            w.key("aamva"); writeAAMVA(set.bytes, to: &w)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return String(decoding: w.bytes, as: UTF8.self)
    }
}
