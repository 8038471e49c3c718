import Foundation
import IDKitImage
import IDKitMRZ
import IDKitScan

struct ImageManifest: Decodable {
    struct Entry: Decodable {
        var file: String
        var group: String
        var layout: String
        var lines: [String]
        var quad: [[Double]]
    }
    var images: [Entry]
}

/// `idkit-bench scan-locate DIR`: where the locator puts the band, against the ground truth.
func runScanLocate(directory: String) {
    guard let data = FileManager.default.contents(atPath: directory + "/manifest.json"),
          let manifest = try? JSONDecoder().decode(ImageManifest.self, from: data) else {
        print("scan-locate: no manifest.json in \(directory)"); return
    }
    var found = 0
    for entry in manifest.images {
        let image = try! ImageDecoder.decodeFile(atPath: directory + "/" + entry.file).image
        let start = now()
        let bands = MRZBandLocator().locate(in: image)
        let ms = Double(now() - start) / 1e6
        let truth = entry.quad.map { Point(x: $0[0], y: $0[1]) }
        var line = entry.file.padding(toLength: 22, withPad: " ", startingAt: 0)
        if let band = bands.first {
            let q = band.quad.corners, qf = band.flipped().quad.corners
            let err = min(zip(q, truth).map { hypot($0.x - $1.x, $0.y - $1.y) }.max()!,
                          zip(qf, truth).map { hypot($0.x - $1.x, $0.y - $1.y) }.max()!)
            if band.format.rawValue == entry.layout && err < 3 * band.characterHeight { found += 1 }
            line += " \(band.format) lines \(band.lines.map(\.componentCount)) h \(String(format: "%.1f", band.characterHeight)) err \(String(format: "%.1f", err))"
        } else {
            line += " not found"
        }
        print(line + String(format: "  %.0f ms", ms))
    }
    print("located \(found)/\(manifest.images.count)")
}
