import Foundation
import IDKitAAMVA
import IDKitBarcode
import IDKitImage
import Testing

/// The README's barcode example, run as written (paths from the repository root).
@Test("README: read a license barcode from a photo and parse it")
func readmeBarcodeExample() throws {
    let root = PDF417Vectors.root.deletingLastPathComponent().path
    let image = try ImageDecoder.decodeFile(atPath: root + "/TestVectors/pdf417/images/rot30-00.png").image
    let barcode = try BarcodeReader(options: .pdf417).read(image)[0]   // raw bytes, quad, decoder
    let license = try AAMVAParser().parse(barcode.bytes)
    let printed = "\(license.version!) \(license.jurisdiction!.code) \(license.fields.lastName!) \(license.fields.dateOfBirth!)"
    let readme = try String(contentsOfFile: root + "/README.md", encoding: .utf8)
    #expect(readme.contains("prints `\(printed)`"), "the README should say: prints `\(printed)`")
}
