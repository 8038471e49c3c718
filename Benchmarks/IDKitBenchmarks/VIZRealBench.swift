import Foundation
import IDKitDocument
import IDKitImage
import IDKitMRZ
import IDKitScan
import IDKitVIZ

/// `idkit-bench viz-real DIR [-v]`: the visual zone of the real specimens (`labels.jsonl` of
/// ../shared/testdata/mrz-real): per image, which of the fields the printed MRZ holds are found in
/// the VIZ matching it, and what reading the zone costs. Only images whose MRZ is read exactly
/// count, so that the figure is the VIZ reader's, not the MRZ reader's.
func runVIZReal(directory: String, verbose: Bool, dump: String? = nil) {
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
