import Foundation
import IDKitCore
import IDKitDocument
import IDKitImage
import IDKitMRZ
import IDKitScan
import IDKitVIZ
import IDKitTestSupport

/// `idkit-bench viz-real DIR [-v]`: the visual zone of the real specimens (`labels.jsonl` of
/// ../shared/testdata/mrz-real): first every image's fields against the values labeled by eye
/// (``judgeVIZReal(directory:verbose:writeExpected:)``); then per image, which of the fields the
/// printed MRZ holds are found in the VIZ matching it, and what reading the zone costs. Only
/// images whose MRZ is read exactly count there, so that the figure is the VIZ reader's, not the
/// MRZ reader's.
func runVIZReal(directory: String, verbose: Bool, dump: String? = nil, writeExpected: String? = nil) {
    judgeVIZReal(directory: directory, verbose: verbose, writeExpected: writeExpected)
    guard let text = try? String(contentsOfFile: directory + "/labels.jsonl", encoding: .utf8) else {
        print("viz-real: no labels.jsonl in \(directory)"); return
    }
    let labels = text.split(separator: "\n").compactMap { try? JSONDecoder().decode(RealLabel.self, from: Data($0.utf8)) }
    if let error = DocumentScanner.vizError { print("viz-real: \(error)"); return }
    let scanner = DocumentScanner(readBarcodes: false, readVIZ: true)
    let anchored: [DocumentFieldName] = [.lastName, .firstName, .documentNumber, .dateOfBirth, .dateOfExpiry, .personalIdNumber]
    var fieldsWanted = 0, fieldsFound = 0, pages = 0
    var byField: [DocumentFieldName: (wanted: Int, found: Int)] = [:]
    var byFormat: [String: (wanted: Int, found: Int)] = [:]
    var captioned: [DocumentFieldName: Int] = [:]
    var times: [Double] = []
    for label in labels {
        let (scan, image) = scanner.scanKeepingImage(file: directory + "/" + label.file)
        guard let image, scan.reading?.lines == label.mrz, let parsed = scan.parsed else {
            if verbose { print("skip     \(label.file) (MRZ not read exactly, or no document)") }
            continue
        }
        guard let reading = scan.viz else {
            if verbose { print("no page  \(label.file)") }
            continue
        }
        times.append(scan.timingsMs["viz"] ?? 0)
        if let dump, let detection = scan.detection, let band = scan.band,
           let page = DocumentScanner.visualZonePage(of: image, detection, band: band), let png = try? ImageEncoder.png(page) {
            let name = (label.file as NSString).lastPathComponent
            FileManager.default.createFile(atPath: dump + "/" + name + ".page.png", contents: Data(png))
            let text = reading.lines.map { $0.text }.joined(separator: "\n")
            try? text.write(toFile: dump + "/" + name + ".lines.txt", atomically: true, encoding: String.Encoding.utf8)
        }
        pages += 1
        for name: DocumentFieldName in [.dateOfIssue, .placeOfBirth, .issuingAuthority] where reading.fields[name] != nil { captioned[name, default: 0] += 1 }
        let present = VIZFieldFinder.anchoredFields(of: parsed)
        var found: [String] = [], missing: [String] = []
        for name in anchored where present.contains(name) {
            fieldsWanted += 1
            byField[name, default: (0, 0)].wanted += 1
            byFormat[label.format, default: (0, 0)].wanted += 1
            if reading.fields[name]?.matchesMRZ == true {
                fieldsFound += 1
                byField[name, default: (0, 0)].found += 1
                byFormat[label.format, default: (0, 0)].found += 1
                found.append(name.rawValue)
            } else {
                missing.append(name.rawValue)
            }
        }
        if verbose {
            let captions = [DocumentFieldName.dateOfIssue, .placeOfBirth, .issuingAuthority].compactMap { n in reading.fields[n].map { "\(n.rawValue)=\($0.value)" } }
            print(String(format: "%-28@ %4.0f ms  found %@  missing %@  %@", label.file as NSString, times.last!,
                         found.joined(separator: ","), missing.isEmpty ? "-" : missing.joined(separator: ","), captions.joined(separator: " ")))
        }
    }
    times.sort()
    let median = times.isEmpty ? 0 : times[times.count / 2]
    let p90 = times.isEmpty ? 0 : times[min(times.count - 1, times.count * 9 / 10)]
    print("viz-real: \(pages) pages; MRZ fields found in the VIZ and matching: \(fieldsFound) of \(fieldsWanted)"
          + String(format: " (%.0f%%); VIZ reading median %.0f ms, p90 %.0f ms", 100 * Double(fieldsFound) / Double(max(1, fieldsWanted)), median, p90))
    for name in anchored { if let c = byField[name] { print("  \(name.rawValue): \(c.found) of \(c.wanted)") } }
    for (name, n) in captioned.sorted(by: { $0.key < $1.key }) { print("  \(name.rawValue) found under its caption: \(n) pages") }
    // A TD1 card's MRZ is on its back, where most cards print none of the MRZ's fields.
    for (format, c) in byFormat.sorted(by: { $0.key < $1.key }) { print("  \(format): \(c.found) of \(c.wanted)") }
}

/// Every image of the real specimens scanned with its visual zone, each labeled field judged
/// (``VIZJudge``): exact / wrong / missing per field, the fields the MRZ lacks apart, and the
/// MRZ-matched fields that the labels say are wrong (there must be none). With `writeExpected`,
/// the verdicts as the ratchet file of RealVisualZoneTests.
func judgeVIZReal(directory: String, verbose: Bool, writeExpected: String?) {
    guard let labels = try? VIZLabels.load(root: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) else {
        print("viz-real: no TestVectors/mrz-real/viz-labels.json here (run from the repository)"); return
    }
    let day = VIZJudge.referenceDate
    let scanner = DocumentScanner(readBarcodes: false, referenceDate: CalendarDate(year: day.year, month: day.month, day: day.day), readVIZ: true)
    var tally: [String: [VIZVerdict: Int]] = [:]
    var expected: [String: [String: VIZVerdict]] = [:]
    var wrongMatches: [String] = []
    for label in labels.images {
        let scan = scanner.scan(file: directory + "/images/" + label.file)
        let reported = vizReported(scan)
        let verdicts = VIZJudge.judge(label, reported: reported)
        expected[label.file] = verdicts
        for (name, v) in verdicts { tally[name, default: [:]][v, default: 0] += 1 }
        for (name, v) in verdicts where v == .wrong && scan.viz?.fields[DocumentFieldName(rawValue: name)!]?.matchesMRZ == true {
            wrongMatches.append("\(label.file) \(name)")
        }
        if verbose {
            let line = verdicts.sorted { $0.key < $1.key }.map { name, v in
                v == .exact ? name : "\(name):\(v.rawValue)" + (v == .wrong ? "(\(reported[name]!.value))" : "")
            }
            print("\(label.file.padding(toLength: 28, withPad: " ", startingAt: 0)) \(line.joined(separator: " "))")
        }
    }
    print("viz-real against the labels (exact / wrong / missing of the fields labeled):")
    for group in [VIZJudge.anchored, VIZJudge.captioned] {
        var sum: [VIZVerdict: Int] = [:]
        for name in group {
            let t = tally[name] ?? [:]
            for (v, n) in t { sum[v, default: 0] += n }
            print("  \(name.padding(toLength: 18, withPad: " ", startingAt: 0)) \(t[.exact] ?? 0) / \(t[.wrong] ?? 0) / \(t[.missing] ?? 0)")
        }
        let all = sum.values.reduce(0, +)
        print(String(format: "  %@: %d of %d exact (%.0f%%), %d wrong", group == VIZJudge.anchored ? "fields the MRZ holds" : "fields the MRZ lacks",
                     sum[.exact] ?? 0, all, 100 * Double(sum[.exact] ?? 0) / Double(max(1, all)), sum[.wrong] ?? 0))
    }
    print("  matching the MRZ but not the print: \(wrongMatches.isEmpty ? "none" : wrongMatches.joined(separator: ", "))")
    if let writeExpected {
        let file = ExpectedVIZ(source: "make bench-viz-real (idkit-bench viz-real --write-expected): each labeled field's verdict, the ratchet of Tests/IDKitScanTests/RealVisualZoneTests.swift", images: expected)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        if let data = try? encoder.encode(file) { FileManager.default.createFile(atPath: writeExpected, contents: data + Data("\n".utf8)) }
    }
}

/// The ratchet file of RealVisualZoneTests.
struct ExpectedVIZ: Codable {
    var source: String
    var images: [String: [String: VIZVerdict]]
}

/// A scan's visual-zone fields as the judge takes them.
func vizReported(_ scan: DocumentScan) -> [String: VIZJudge.Reported] {
    var out: [String: VIZJudge.Reported] = [:]
    for (name, field) in scan.viz?.fields ?? [:] { out[name.rawValue] = VIZJudge.Reported(text: field.text, value: field.value) }
    return out
}
