import Foundation
import IDKitAAMVA
import IDKitBarcode
import IDKitCore

/// The JSON contract of the barcodes found in an image, with the AAMVA payload parsed where a
/// PDF417 holds one: the whole of `idkit barcode --json` and the `barcodes` member of `idkit scan
/// --json`. Here, with the readers it reports on, so that every front end writes the same bytes.
public enum BarcodeReport {
    /// The `idkit barcode --json` contract (README): `{"file", "barcodes": [{"format", "bytes",
    /// "quad", "decoder", "isMirrored", "aamva"}], "errors"}`.
    public static func json(file: String, barcodes: [Barcode], errors: [String]) -> String {
        var w = JSONWriter(capacity: 4096)
        w.beginObject()
        w.key("file"); w.string(file)
        w.key("barcodes"); writeBarcodes(barcodes, to: &w)
        w.key("errors"); w.beginArray()
        for e in errors { w.string(e) }
        w.endArray()
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
            w.key("aamva")
            if b.format == .pdf417, let payload = try? AAMVAParser().parse(b.bytes) {
                w.raw(Array(AAMVAReport(payload).jsonString().utf8))
            } else {
                w.null()
            }
            w.endObject()
        }
        w.endArray()
    }
}
