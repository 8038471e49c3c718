import CIDKit
import Foundation
import IDKitAAMVA
import IDKitChip
import IDKitCore
import IDKitDocument
import IDKitImage
import IDKitMRZ
import IDKitScan

// libidkit's C interface (`Sources/CIDKit/include/idkit.h`, the header users include): bytes in,
// JSON bytes out, in the contracts of the command line and the service and from the same
// encoders. Each export catches every Swift error and turns it into a status and the error
// object `{"error": {"kind", "message", "line", "column", "offset"}}`; nothing here keeps state
// between calls, so any number of threads may call at once.

@_cdecl("idkit_version")
public func idkitVersion() -> UnsafePointer<CChar> { CABI.version }

@_cdecl("idkit_abi_version")
public func idkitABIVersion() -> Int32 { 1 }

@_cdecl("idkit_mrz_validate")
public func idkitMRZValidate(_ text: UnsafePointer<UInt8>?, _ length: Int, _ options: UnsafePointer<CChar>?) -> UnsafeMutablePointer<idkit_result>? {
    CABI.call(text, length, options, allowed: CABI.mrzOptions) { bytes, o, w in
        let validator = MRZRecordValidator(options: try o.mrz())
        // One record: the text as it is, lines split at '\n' (a record of the batch format too).
        var record = MRZRecord(kind: .text, bytes: bytes, lineCount: 1, firstLineLength: bytes.count, startLine: 1)
        if bytes.first == UInt8(ascii: "{") { record.kind = .json }
        _ = validator.writeJSONLine(for: record, source: "-", into: &w)
        w.unterminateLine()
    }
}

@_cdecl("idkit_mrz_validate_many")
public func idkitMRZValidateMany(_ text: UnsafePointer<UInt8>?, _ length: Int, _ options: UnsafePointer<CChar>?) -> UnsafeMutablePointer<idkit_result>? {
    CABI.call(text, length, options, allowed: CABI.mrzOptions) { bytes, o, w in
        let validator = MRZRecordValidator(options: try o.mrz())
        var reader = MRZRecordReader(bytes: bytes)
        w.beginArray()
        while let record = reader.next() {
            _ = validator.writeJSONLine(for: record, source: "-", into: &w)
            w.unterminateLine()
        }
        w.endArray()
    }
}

@_cdecl("idkit_aamva_parse")
public func idkitAAMVAParse(_ payload: UnsafePointer<UInt8>?, _ length: Int, _ options: UnsafePointer<CChar>?) -> UnsafeMutablePointer<idkit_result>? {
    CABI.call(payload, length, options, allowed: []) { bytes, _, w in
        AAMVAReport(try AAMVAParser().parse(bytes)).writeJSON(to: &w)
    }
}

@_cdecl("idkit_barcode_read")
public func idkitBarcodeRead(_ image: UnsafePointer<UInt8>?, _ length: Int, _ options: UnsafePointer<CChar>?) -> UnsafeMutablePointer<idkit_result>? {
    CABI.call(image, length, options, allowed: ["pdf417"]) { bytes, o, w in
        w.appendRaw(try BarcodeReport.json(imageData: bytes, pdf417: try o.flag("pdf417") ?? false))
    }
}

@_cdecl("idkit_scan")
public func idkitScan(_ image: UnsafePointer<UInt8>?, _ length: Int, _ options: UnsafePointer<CChar>?) -> UnsafeMutablePointer<idkit_result>? {
    CABI.call(image, length, options, allowed: ["barcodes", "referenceDate", "redaction", "viz"]) { bytes, o, w in
        if let reason = DocumentScanner.modelError {
            throw CABI.Failure(status: Int32(IDKIT_INTERNAL_ERROR), kind: "modelUnavailable", message: reason)
        }
        let viz = try o.flag("viz") ?? false
        if viz, let error = DocumentScanner.vizError { throw error }
        _ = try ImageDecoder.Format.required(bytes)
        _ = try ImageDecoder.pageCount(bytes)
        let scanner = DocumentScanner(readBarcodes: try o.flag("barcodes") ?? true, referenceDate: try o.date("referenceDate") ?? .today,
                                      redaction: try o.redaction() ?? .fixed(.none), readVIZ: viz)
        let scan = scanner.scan(data: bytes)
        if scan.status == .unsupportedImage { throw scan.imageError }
        if scan.foundNothing {
            throw CABI.Failure(status: Int32(IDKIT_NOT_FOUND), kind: scan.status.rawValue,
                               message: scan.reason ?? "no MRZ, barcode or document outline in the image")
        }
        w.appendRaw(scan.json(file: "-"))
    }
}

@_cdecl("idkit_scan_sides")
public func idkitScanSides(_ front: UnsafePointer<UInt8>?, _ frontLength: Int, _ back: UnsafePointer<UInt8>?, _ backLength: Int,
                           _ options: UnsafePointer<CChar>?) -> UnsafeMutablePointer<idkit_result>? {
    CABI.call(front, frontLength, options, allowed: ["barcodes", "referenceDate", "redaction"]) { frontBytes, o, w in
        guard backLength >= 0, back != nil || backLength == 0 else {
            throw CABI.Failure(status: Int32(IDKIT_INTERNAL_ERROR), kind: "invalidArgument", message: "the back's pointer is NULL but its length is \(backLength)")
        }
        if let reason = DocumentScanner.modelError {
            throw CABI.Failure(status: Int32(IDKIT_INTERNAL_ERROR), kind: "modelUnavailable", message: reason)
        }
        if let error = DocumentScanner.vizError { throw error }
        let backBytes = back.map { Array(UnsafeBufferPointer(start: $0, count: backLength)) } ?? []
        let scanner = DocumentScanner(readBarcodes: try o.flag("barcodes") ?? true, referenceDate: try o.date("referenceDate") ?? .today,
                                      redaction: try o.redaction() ?? .fixed(.none))
        var sides: [GrayImage] = []
        for (side, bytes) in [("front", frontBytes), ("back", backBytes)] {
            do throws(ImageError) {
                _ = try ImageDecoder.Format.required(bytes)
                sides.append(try scanner.uprightImage(data: bytes))
            } catch {
                throw ImageError(error.kind, "the \(side): \(error.message)")
            }
        }
        let scan = scanner.scan(front: sides[0], back: sides[1])
        if scan.foundNothing {
            throw CABI.Failure(status: Int32(IDKIT_NOT_FOUND), kind: scan.status.rawValue,
                               message: scan.reason ?? "no MRZ, barcode or document outline in either image")
        }
        w.appendRaw(scan.json(file: "-"))
    }
}

@_cdecl("idkit_merge")
public func idkitMerge(_ input: UnsafePointer<UInt8>?, _ length: Int, _ options: UnsafePointer<CChar>?) -> UnsafeMutablePointer<idkit_result>? {
    CABI.call(input, length, options, allowed: ["referenceDate", "redaction", "csca", "masterList"]) { bytes, o, w in
        let input = try DocumentInput(json: bytes)
        let merger = DocumentMerger(referenceDate: try o.date("referenceDate") ?? input.referenceDate ?? .today,
                                    redaction: try o.redaction() ?? .fixed(.none), cscas: try o.cscas())
        w.appendRaw(try merger.merge(input).jsonString())
    }
}

@_cdecl("idkit_bac_keys")
public func idkitBACKeys(_ request: UnsafePointer<UInt8>?, _ length: Int, _ options: UnsafePointer<CChar>?) -> UnsafeMutablePointer<idkit_result>? {
    CABI.call(request, length, options, allowed: []) { bytes, _, w in
        try BACReport(try BACRequest(json: bytes)).writeJSON(to: &w)
    }
}
