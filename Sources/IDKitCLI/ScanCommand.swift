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
        var barcodes = true
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
            case .option(name: "help", value: nil), .option(name: "h", value: nil): return nil
            case .option(name: "annotate", let v): o.annotate = try cursor.value(of: "annotate", v, expecting: "a directory for the annotated PNGs")
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
        if let dir = o.annotate {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw UsageError(message: "--annotate: '\(dir)' is not an existing directory")
            }
        }
        return o
    }

    static func run(_ arguments: [String], io: StandardIO) -> IDKitCommand.ExitStatus {
        let (parsed, exit) = CommandStart.options("scan", help: Help.scan, io: io) { () throws(UsageError) in try parseOptions(arguments) }
        guard let options = parsed else { return exit }
        let scanner = DocumentScanner(limits: options.limits, readBarcodes: options.barcodes, referenceDate: options.referenceDate,
                                      redaction: .fixed(options.redactionOptions.settings))
        var status = IDKitCommand.ExitStatus.valid
        var cannotWrite = false
        // Each result with its name in the output and the name of its annotation file.
        var jobs: [(name: String, scan: DocumentScan, image: GrayImage?, annotation: String)] = []
        func annotationName(_ file: String, page: Int) -> String {
            URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent + (page == 0 ? "" : ".page\(page + 1)") + ".annotated.png"
        }
        if options.fuse {
            var frames: [GrayImage] = []
            var failed: (String, DocumentScan)?
            for file in options.files {
                do {
                    frames.append(try scanner.uprightImage(file: file))
                } catch {
                    failed = (file, .failed(.unsupportedImage, reason: "\(file): \(error.message)"))
                    break
                }
            }
            if let failed { jobs.append((failed.0, failed.1, nil, "")) } else {
                jobs.append((options.files.joined(separator: ","), scanner.scan(frames: frames), frames.first,
                             annotationName(options.files[0], page: 0)))
            }
        } else {
            for file in options.files {
                // Every page of a multi-page TIFF: the first under the file's name, the others as
                // FILE#page=N (N from 2).
                for (page, scan, image) in scanner.scanPages(file: file) {
                    jobs.append((page == 0 ? file : "\(file)#page=\(page + 1)", scan, options.annotate != nil ? image : nil,
                                 annotationName(file, page: page)))
                }
            }
        }
        for job in jobs {
            if options.json {
                io.out.write(job.scan.json(file: job.name) + "\n")
            } else {
                io.out.write(human(file: job.name, scan: job.scan))
            }
            if let dir = options.annotate, let image = job.image {
                let name = job.annotation
                let rgb = ScanAnnotation.render(image, scan: job.scan)
                do {
                    try SystemCalls.writeFile(dir + "/" + name, try ImageEncoder.png(image, rgb: rgb))
                } catch let error as SystemCallError {
                    io.err.write("idkit scan: cannot write '\(dir)/\(name)': \(error.message)\n")
                    cannotWrite = true
                } catch let error as ImageError {
                    io.err.write("idkit scan: cannot encode '\(dir)/\(name)': \(error.message)\n")
                    cannotWrite = true
                } catch {
                    io.err.write("idkit scan: cannot write '\(dir)/\(name)': \(error)\n")
                    cannotWrite = true
                }
            }
            if job.scan.status == .unsupportedImage { status = .unreadableInput } else if job.scan.status != .ok, status == .valid { status = .invalid }
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
            for (l, line) in reading.lines.enumerated() {
                let unsure = reading.confidence[l].enumerated().filter { $0.element < 0.8 }.map(\.offset)
                out += "    \(line)" + (unsure.isEmpty ? "" : "   uncertain at \(unsure.map { String($0 + 1) }.joined(separator: ","))") + "\n"
            }
        }
        if let q = scan.quality {
            out += String(format: "  quality: brightness %.2f, sharpness %@, glare %.3f, MRZ characters %@ px",
                          q.brightness, q.sharpness.map { String(format: "%.2f", $0) } ?? "–", q.glare,
                          q.mrzCharHeightPx.map { String(format: "%.0f", $0) } ?? "–")
            out += q.hints.isEmpty ? "\n" : "; hints: " + q.hints.joined(separator: ", ") + "\n"
        }
        for b in scan.barcodes { out += "  barcode: \(b.format.rawValue), \(b.bytes.count) bytes\n" }
        if let d = scan.document, let name = d[.lastName].value {
            out += "  document: \(name)" + (d[.firstName].value.map { ", \($0)" } ?? "") + (d[.documentNumber].value.map { ", no. \($0)" } ?? "") + "\n"
        }
        out += String(format: "  %.0f ms\n", scan.timingsMs["total"] ?? 0)
        return out
    }
}
