import Foundation
import Testing
import IDKitBarcode
import IDKitImage
import IDKitMRZ
@testable import IDKitScan

/// The JSON contracts that live in IDKitScan, against their golden key paths in
/// `TestVectors/contracts/*.keys` (TestVectors/contracts/make_keys.py): adding, removing or
/// renaming a key of `idkit scan --json` or `idkit barcode --json` fails here first.
@Suite struct ContractTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The same walk as make_keys.py: keys joined by `.`, `[]` for array elements, objects keyed
    /// by data (`elements`, `readings`) not descended into.
    static func paths(_ value: Any, _ prefix: String = "", into out: inout Set<String>) {
        if let object = value as? [String: Any] {
            for (k, v) in object {
                let p = prefix.isEmpty ? k : prefix + "." + k
                out.insert(p)
                if k != "elements" && k != "readings" { paths(v, p, into: &out) }
            }
        } else if let array = value as? [Any] {
            for v in array { paths(v, prefix + "[]", into: &out) }
        }
    }

    static func keys(ofJSON line: String) throws -> [String] {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
        var out = Set<String>()
        paths(object, into: &out)
        return out.sorted()
    }

    static func golden(_ name: String) throws -> [String] {
        try String(contentsOf: root.appendingPathComponent("TestVectors/contracts/\(name).keys"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
    }

    @Test func scanContractKeepsItsKeys() throws {
        let file = "TestVectors/images/clean-00-td3.jpg"
        let scanner = DocumentScanner(referenceDate: CalendarDate(year: 2025, month: 1, day: 1))
        let scan = scanner.scan(file: Self.root.appendingPathComponent(file).path)
        #expect(scan.status == .ok)
        let line = scan.json(file: file)
        #expect(!line.contains("\n"))
        #expect(try Self.keys(ofJSON: line) == Self.golden("scan"))
    }

    @Test func barcodeContractKeepsItsKeys() throws {
        let file = "TestVectors/pdf417/images/phone-00.jpg"
        let image = try ImageDecoder.decodeFile(atPath: Self.root.appendingPathComponent(file).path).image
        let barcodes = try BarcodeReader().read(image)
        #expect(barcodes.contains { $0.format == .pdf417 })
        #expect(try Self.keys(ofJSON: BarcodeReport.json(file: file, barcodes: barcodes)) == Self.golden("barcode"))
    }

    @Test func aRenamedKeyIsCaught() throws {
        // The check itself can fail: one key renamed in an otherwise identical scan contract.
        let file = "TestVectors/images/clean-00-td3.jpg"
        let scan = DocumentScanner(referenceDate: CalendarDate(year: 2025, month: 1, day: 1))
            .scan(file: Self.root.appendingPathComponent(file).path)
        let renamed = scan.json(file: file).replacingOccurrences(of: "\"unsureFields\"", with: "\"unsure\"")
        #expect(try Self.keys(ofJSON: renamed) != Self.golden("scan"))
    }
}
