import IDKitCLICore
import Foundation
import IDKitImage
import IDKitMRZ
import IDKitScan

/// `idkit scan IMAGE…`: find and read the MRZ, judge the image, read barcodes, merge.
enum ScanCommand {
    struct Options {
        var json = false
        var fuse = false
        var annotate: String?
        var crop: String?
        var barcodes = true
        var viz = false
        var sides = false
        var limits = ImageLimits.default
        var referenceDate: CalendarDate = .today
        var files: [String] = []
        var redactionOptions = RedactionOptions()
    }

    static func parseOptions(_ arguments: [String]) throws(UsageError) -> Options? {
        var o = Options()
        var cursor = TokenCursor(arguments)
        while let token = cursor.next() {
            switch token {
            case .option(name: "json", value: nil): o.json = true
            case .option(name: "fuse", value: nil): o.fuse = true
            case .option(name: "no-barcodes", value: nil): o.barcodes = false
            case .option(name: "viz", value: nil): o.viz = true
            case .option(name: "sides", value: nil): o.sides = true
            case .option(name: "help", value: nil), .option(name: "h", value: nil): return nil
            case .option(name: "annotate", let v): o.annotate = try cursor.value(of: "annotate", v, expecting: "a directory for the annotated PNGs")
            case .option(name: "crop", let v): o.crop = try cursor.value(of: "crop", v, expecting: "a directory for the document and face crops")
            case .option(name: "max-pixels", let v): o.limits.maxPixels = try cursor.maxPixels(v)
            case .option(name: "reference-date", let v): o.referenceDate = try cursor.referenceDate(v)
            case .option(let name, let v) where RedactionOptions.names.contains(name):
                try o.redactionOptions.accept(name, v, &cursor)
            case .option(let name, _): throw UsageError(message: "unknown option '--\(name)' for 'idkit scan'")
            case .positional(let path): o.files.append(path)
            case .stdin: throw UsageError(message: "'idkit scan' reads image files, not standard input")
            }
        }
        guard !o.files.isEmpty else { throw UsageError(message: "no image given; usage: idkit scan [--json] IMAGE…") }
        for (flag, dir) in [("annotate", o.annotate), ("crop", o.crop)] {
            guard let dir else { continue }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw UsageError(message: "--\(flag): '\(dir)' is not an existing directory")
            }
        }
        if o.crop != nil, o.fuse { throw UsageError(message: "--crop cannot be used with --fuse (the crops are of one image)") }
        if o.sides {
            guard o.files.count == 2 else {
                throw UsageError(message: "--sides takes two images, the card's front and then its back; found \(o.files.count)")
            }
            if o.fuse || o.crop != nil { throw UsageError(message: "--sides cannot be used with --fuse or --crop") }
        }
        if o.viz, o.fuse { throw UsageError(message: "--viz cannot be used with --fuse (the visual zone is read from one image)") }
        return o
    }

    static func run(_ arguments: [String], io: StandardIO) -> IDKitCommand.ExitStatus {
        let (parsed, exit) = CommandStart.options("scan", help: Help.scan, io: io) { () throws(UsageError) in try parseOptions(arguments) }
        guard let options = parsed else { return exit }
        if let reason = DocumentScanner.modelError {
            io.err.write("idkit scan: \(reason)\n")
            return .software
        }
        if options.viz || options.sides, let error = DocumentScanner.vizError {
            io.err.write("idkit scan: \(options.sides ? "--sides" : "--viz"): \(error.message)\n")
            return .software
        }
        let scanner = DocumentScanner(limits: options.limits, readBarcodes: options.barcodes, referenceDate: options.referenceDate,
                                      redaction: .fixed(options.redactionOptions.settings), readVIZ: options.viz)
        var status = IDKitCommand.ExitStatus.valid
        var cannotWrite = false
        // Each result with its name in the output and the name of its annotation file.
        var jobs: [(name: String, scan: DocumentScan, image: GrayImage?, color: ColorImage?, stem: String)] = []
        func stem(_ file: String, page: Int) -> String {
            URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent + (page == 0 ? "" : ".page\(page + 1)")
        }
        /// Writes a PNG; false (with the message on standard error) when it cannot.
        func write(_ path: String, _ png: () throws(ImageError) -> [UInt8]) -> Bool {
            do {
                try SystemCalls.writeFile(path, try png())
                return true
            } catch let error as SystemCallError {
                io.err.write("idkit scan: cannot write '\(path)': \(error.message)\n")
            } catch let error as ImageError {
                io.err.write("idkit scan: cannot encode '\(path)': \(error.message)\n")
            } catch {
                io.err.write("idkit scan: cannot write '\(path)': \(error)\n")
            }
            cannotWrite = true
            return false
        }
        if options.sides {
            // The front and the back of one card, as one document.
            var sides: [GrayImage] = []
            for file in options.files {
                do {
                    sides.append(try scanner.uprightImage(file: file))
                } catch {
                    jobs.append((options.files.joined(separator: ","), .failed(.unsupportedImage, reason: "\(file): \(error.message)",
                                                                              reasonKind: error.kind.rawValue), nil, nil, ""))
                    break
                }
            }
            if sides.count == 2 {
                jobs.append((options.files.joined(separator: ","), scanner.scan(front: sides[0], back: sides[1]), sides[1], nil,
                             stem(options.files[1], page: 0)))
            }
        } else if options.fuse {
            var frames: [GrayImage] = []
            var failed: (String, DocumentScan)?
            for file in options.files {
                do {
                    frames.append(try scanner.uprightImage(file: file))
                } catch {
                    failed = (file, .failed(.unsupportedImage, reason: "\(file): \(error.message)", reasonKind: error.kind.rawValue))
                    break
                }
            }
            if let failed { jobs.append((failed.0, failed.1, nil, nil, "")) } else {
                jobs.append((options.files.joined(separator: ","), scanner.scan(frames: frames), frames.first, nil,
                             stem(options.files[0], page: 0)))
            }
        } else {
            for file in options.files {
                // Every page of a multi-page TIFF: the first under the file's name, the others as
                // FILE#page=N (N from 2).
                // With --crop each page is decoded once in color and read in the gray derived from it.
                for (page, scan, image, color) in scanner.scanPages(file: file, color: options.crop != nil) {
                    jobs.append((page == 0 ? file : "\(file)#page=\(page + 1)", scan, options.annotate != nil ? image : nil, color,
                                 stem(file, page: page)))
                }
            }
        }
        for var job in jobs {
            // Crops first: their file names go into the JSON. NAME.document.png and NAME.face.png for
            // the primary document, NAME.doc2.document.png … for the others.
            if let dir = options.crop, let color = job.color {
                let images = scanner.crops(of: job.scan, in: color)
                for (k, picture) in images.enumerated() where k < job.scan.documents.count {
                    let base = dir + "/" + job.stem + (k == 0 ? "" : ".doc\(k + 1)")
                    for (key, crop) in [("document", picture.document), ("face", picture.face), ("signature", picture.signature)] {
                        guard let crop else { continue }
                        let path = base + ".\(key).png"
                        if write(path, { () throws(ImageError) in try ImageEncoder.png(crop) }) { job.scan.documents[k].crops[key] = path }
                    }
                }
                if let primary = job.scan.documents.first { job.scan.crops = primary.crops }
            }
            if options.json {
                io.out.write(job.scan.json(file: job.name) + "\n")
            } else {
                io.out.write(human(file: job.name, scan: job.scan))
            }
            if let dir = options.annotate, let image = job.image {
                let rgb = ScanAnnotation.render(image, scan: job.scan)
                _ = write(dir + "/" + job.stem + ".annotated.png") { () throws(ImageError) in try ImageEncoder.png(image, rgb: rgb) }
            }
            // The highest of the images' exit codes (ScanStatus.exitCode).
            if let mine = IDKitCommand.ExitStatus(rawValue: job.scan.status.exitCode), mine.rawValue > status.rawValue { status = mine }
        }
        return cannotWrite ? .cannotCreateOutput : status
    }

    static func human(file: String, scan: DocumentScan) -> String {
        var out = "\(file): \(scan.status.rawValue)"
        if let reason = scan.reason { out += " — \(reason)" }
        out += "\n"
        if let reading = scan.reading {
            out += "  \(reading.format) \(reading.verified ? "verified" : "unverified")"
            if reading.checkDigitCorrections > 0 { out += ", \(reading.checkDigitCorrections) character(s) set by the check digits" }
            out += "\n"
            for line in reading.lines { out += "    \(line)\n" }
            // The one rule for sure (MRZReading.isSure), as the JSON's unsureFields.
            if !reading.isSure { out += "  in doubt: \(reading.unsureFields.joined(separator: ", "))\n" }
        }
        if let q = scan.quality {
            out += String(format: "  quality: brightness %.2f, sharpness %@, glare %.3f, MRZ characters %@ px",
                          q.brightness, q.sharpness.map { String(format: "%.2f", $0) } ?? "–", q.glare,
                          q.mrzCharHeightPx.map { String(format: "%.0f", $0) } ?? "–")
            out += q.hints.isEmpty ? "\n" : "; hints: " + q.hints.joined(separator: ", ") + "\n"
        }
        // Every document found: its format, how sure the outline is, its MRZ status, its crops.
        for (k, d) in scan.documents.enumerated() {
            guard let detection = d.detection else { continue }
            let c = detection.corners.corners.map { String(format: "(%.0f, %.0f)", $0.x, $0.y) }.joined(separator: " ")
            out += String(format: "  document %d: %@, confidence %.2f, %@; corners %@\n", k + 1, detection.format.rawValue,
                          detection.confidence, k == 0 ? "primary" : d.status.rawValue, c)
            for key in ["document", "face", "signature"] { if let path = d.crops[key] { out += "    \(key) crop: \(path)\n" } }
        }
        for b in scan.barcodes { out += "  barcode: \(b.format.rawValue), \(b.bytes.count) bytes\n" }
        if let sides = scan.sides {
            let match = sides.match.map { $0 ? "the front belongs to this document" : "the front belongs to another document" } ?? "cannot tell"
            out += "  sides: \(match)" + (sides.swapped ? " (the images were given back first)" : "")
            out += sides.matchedFields.isEmpty ? "" : "; matching: " + sides.matchedFields.map(\.rawValue).joined(separator: ", ")
            out += (sides.match != false ? sides.reason.map { " — \($0)" } : nil) ?? ""
            out += "\n"
        }
        if let d = scan.document, let name = d[.lastName].value {
            out += "  document: \(name)" + (d[.firstName].value.map { ", \($0)" } ?? "") + (d[.documentNumber].value.map { ", no. \($0)" } ?? "") + "\n"
        }
        out += String(format: "  %.0f ms\n", scan.timingsMs["total"] ?? 0)
        return out
    }
}
