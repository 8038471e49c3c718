import Foundation
import Testing
import IDKitImage
import IDKitMRZ
@testable import IDKitScan

/// The status vocabulary a backend acts on (issue 38): one test per status on the committed
/// generated images (`TestVectors/images`, `make_images.py`), and the rule that tells a print that
/// breaks a rule (reject) from a reading in doubt (retake).
struct ScanStatusTests {
    let scanner = DocumentScanner(readBarcodes: false, referenceDate: CalendarDate(year: 2025, month: 1, day: 1))

    func scan(_ name: String) -> DocumentScan {
        scanner.scan(file: ImageVectors.directory.appendingPathComponent(name).path)
    }

    @Test func okIsReadAndVerified() {
        let s = scan("clean-00-td3.jpg")
        #expect(s.status == .ok && s.reason == nil && s.reasonKind == nil)
        #expect(s.reading?.verified == true && s.reading?.isSure == true)
    }

    /// A faint TD2: read as printed, but a field stays in doubt: take another photo.
    @Test func uncertainNamesTheFieldsInDoubt() {
        let s = scan("faint-00-td2.jpg")
        #expect(s.status == .mrzUncertain)
        #expect(s.reasonKind == "unsureFields")
        #expect(s.reading?.unsureFields.isEmpty == false)
        #expect(s.status.exitCode == 1)
    }

    /// A page printed with a `B` in its date of birth and check digits that do not match, read
    /// as printed: the document is at fault, whatever the doubt about its name's last letters.
    @Test func invalidIsThePrintNotThePhoto() throws {
        let s = scan("misprinted-00-td3.jpg")
        #expect(s.status == .mrzInvalid)
        #expect(s.reasonKind == "invalidCheckDigit")
        let parsed = try #require(s.parsed)
        #expect(!parsed.isValid)
        #expect(parsed.errors.first?.code == .invalidCheckDigit)
        #expect(s.reason?.hasPrefix("the MRZ as printed fails its check digits") == true)
        #expect(s.status.exitCode == 2)
    }

    @Test func notFoundTooSmallAndUnsupported() {
        let blank = scanner.scan(GrayImage(width: 800, height: 600, filledWith: 200))
        #expect(blank.status == .mrzNotFound && blank.reasonKind == "mrzNotFound")
        let tiny = scanner.scan(GrayImage(width: 100, height: 20, filledWith: 200))
        #expect(tiny.status == .imageTooSmall && tiny.reasonKind == "imageTooSmall")
        let notAnImage = scanner.scan(data: Array("not an image".utf8))
        #expect(notAnImage.status == .unsupportedImage)
        #expect(notAnImage.reasonKind == notAnImage.imageError.kind.rawValue)
        #expect(notAnImage.reasonKind == "unsupportedFormat")
    }

    /// A PNG declaring 7000 × 7000 pixels (49 MP, over the 40 MP limit): `tooLarge`, the kind the
    /// front ends map (413 on every route, IDKIT_TOO_LARGE in C), not `corrupt`.
    @Test func beyondTheLimitIsTooLarge() {
        let s = scanner.scan(data: Self.png(width: 7000, height: 7000))
        #expect(s.status == .unsupportedImage)
        #expect(s.reasonKind == "tooLarge")
        #expect(s.imageError.kind == .tooLarge)
        #expect(s.json(file: "-").contains("\"reasonKind\":\"tooLarge\""))
    }

    /// Which broken rules are broken for sure.
    @Test func brokenForSure() {
        func issue(_ code: MRZIssue.Code, _ field: String?) -> MRZIssue {
            MRZIssue(code: code, field: field, line: 2, column: 1, expected: nil, found: nil, message: "")
        }
        // A date's check digit fails and the date is sure, though the name is not.
        #expect(DocumentScanner.breaksSurely([issue(.invalidCheckDigit, "dateOfBirth")], unsure: ["name"]))
        // The failing check digit's own field is in doubt: a misreading may explain it.
        #expect(!DocumentScanner.breaksSurely([issue(.invalidCheckDigit, "dateOfBirth")], unsure: ["dateOfBirth"]))
        // The composite covers the document number, the dates and the optional data.
        #expect(!DocumentScanner.breaksSurely([issue(.invalidCheckDigit, "composite")], unsure: ["dateOfExpiry"]))
        #expect(DocumentScanner.breaksSurely([issue(.digitInCode, "nationality")], unsure: []))
        #expect(!DocumentScanner.breaksSurely([issue(.digitInCode, "nationality")], unsure: ["nationality"]))
        // The exit codes are one per status.
        #expect(Set(ScanStatus.allCases.map(\.exitCode)).count == ScanStatus.allCases.count)
    }

    /// A grey PNG of `width` × `height` whose rows all repeat (a few KB however large it claims to be).
    static func png(width: Int, height: Int) -> [UInt8] {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return be32(data.count) + body + be32(Int(crc32(body)))
        }
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        func crc32(_ bytes: [UInt8]) -> UInt32 {
            var c: UInt32 = 0xFFFF_FFFF
            for b in bytes {
                c ^= UInt32(b)
                for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            }
            return ~c
        }
        // One stored (uncompressed) deflate block holding the first row only: the decoder refuses
        // the size before it inflates anything.
        let row = [UInt8](repeating: 0, count: width + 1)
        let n = row.count
        let deflate: [UInt8] = [0x78, 0x01, 0x01, UInt8(n & 255), UInt8(n >> 8), UInt8(~n & 255), UInt8((~n >> 8) & 255)] + row + [0, 0, 0, 0]
        let header = be32(width) + be32(height) + [8, 0, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", deflate) + chunk("IEND", [])
    }
}
