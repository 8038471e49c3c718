import IDKitCLICore
import Foundation
import IDKitAAMVA
import IDKitBarcode
import IDKitImage
import IDKitMRZ
import IDKitScan

/// `idkit barcode IMAGE…`: decode every barcode in each image; parse AAMVA payloads.
enum BarcodeCommand {
    struct Options {
        var json = false
        /// PDF417 only: no zbar, no other zxing-cpp formats (a license backend's reader).
        var pdf417Only = false
        var limits = ImageLimits.default
        var files: [String] = []
    }

    static func parseOptions(_ arguments: [String]) throws(UsageError) -> Options? {
        var options = Options()
        var cursor = TokenCursor(arguments)
        while let token = cursor.next() {
            switch token {
            case .option(name: "json", value: nil): options.json = true
            case .option(name: "pdf417", value: nil): options.pdf417Only = true
            case .option(name: "help", value: nil), .option(name: "h", value: nil): return nil
            case .option(name: "max-pixels", let v): options.limits.maxPixels = try cursor.maxPixels(v)
            case .option(let name, _): throw UsageError(message: "unknown option '--\(name)' for 'idkit barcode'")
            case .positional(let path): options.files.append(path)
            case .stdin: throw UsageError(message: "'idkit barcode' reads image files, not standard input")
            }
        }
        guard !options.files.isEmpty else { throw UsageError(message: "no image given; usage: idkit barcode [--json] IMAGE…") }
        return options
    }

    static func run(_ arguments: [String], io: StandardIO) -> IDKitCommand.ExitStatus {
        let (parsed, exit) = CommandStart.options("barcode", help: Help.barcode, io: io) { () throws(UsageError) in try parseOptions(arguments) }
        guard let options = parsed else { return exit }
        var status = IDKitCommand.ExitStatus.valid
        let reader = BarcodeReader(options: options.pdf417Only ? .pdf417 : BarcodeReader.Options())
        var all: [Barcode] = []
        for file in options.files {
            var barcodes: [Barcode] = []
            var failure: (any ClassifiedError)?
            do {
                let image = try ImageDecoder.decodeFile(atPath: file, limits: options.limits).image
                barcodes = try reader.read(image)
            } catch let error as any ClassifiedError {
                failure = error
            } catch {
                failure = BarcodeError("\(error)")
            }
            // The worst of the files: an image that cannot be read has its class's exit code (the
            // table every front end uses), one without a barcode is 1.
            if let failure, let mine = IDKitCommand.ExitStatus(rawValue: failure.errorClass.exitCode), mine.rawValue > status.rawValue { status = mine }
            if barcodes.isEmpty && status == .valid { status = .invalid }
            all += barcodes
            if options.json {
                io.out.write(BarcodeReport.json(file: file, barcodes: barcodes, error: failure) + "\n")
            } else {
                io.out.write(human(file: file, barcodes: barcodes, errors: failure.map { [$0.message] } ?? []))
            }
        }
        // Macro PDF417 segments found in the images of this call, joined by file id.
        let sets = MacroSegment.sets(in: all)
        if !sets.isEmpty {
            if options.json {
                io.out.write(BarcodeReport.macroSetsJSON(sets) + "\n")
            } else {
                for set in sets {
                    let count = set.segmentCount.map(String.init) ?? "?"
                    io.out.write("Macro PDF417 file \(set.fileId): segments \(set.segmentsFound.map { String($0 + 1) }.joined(separator: ", ")) of \(count)"
                                 + (set.isComplete ? ", complete: \(set.bytes?.count ?? 0) bytes\n" : ", incomplete\n"))
                }
            }
        }
        return status
    }

    static func human(file: String, barcodes: [Barcode], errors: [String]) -> String {
        var out = ""
        for e in errors { out += "\(file): error: \(e)\n" }
        if barcodes.isEmpty && errors.isEmpty { out += "\(file): no barcode found\n" }
        for b in barcodes {
            let corners = b.quad.corners.map { "(\(Int($0.x.rounded())),\(Int($0.y.rounded())))" }.joined(separator: " ")
            let macro = b.macro.map { ", Macro PDF417 segment \($0.segmentIndex + 1) of \($0.segmentCount.map(String.init) ?? "?") (file \($0.fileId))" } ?? ""
            out += "\(file): \(b.format.rawValue), \(b.bytes.count) bytes, by \(b.decoder.rawValue)\(b.isMirrored ? ", mirrored" : "")\(macro), at \(corners)\n"
            if b.format == .pdf417, let payload = try? AAMVAParser().parse(b.bytes) {
                out += HumanAAMVA.describe(payload, file: "  AAMVA").split(separator: "\n", omittingEmptySubsequences: false)
                    .map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n")
            } else if b.bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
                out += "  \(String(decoding: b.bytes, as: UTF8.self))\n"
            }
        }
        return out
    }
}
