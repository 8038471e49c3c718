import Foundation
import Testing
import IDKitImage
import IDKitMRZ
import IDKitTestSupport
@testable import IDKitScan

/// The status vocabulary a backend acts on: one test per status on the committed
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
        let s = scanner.scan(data: DeclaredSizePNG.bytes(width: 7000, height: 7000))
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
        // The personal number's check digit (the parser's optionalData) with that field in doubt.
        #expect(!DocumentScanner.breaksSurely([issue(.invalidCheckDigit, "optionalData")], unsure: ["optionalData1"]))
        // An expiry before birth depends on both dates.
        #expect(!DocumentScanner.breaksSurely([issue(.expiryBeforeBirth, "dateOfExpiry")], unsure: ["dateOfBirth"]))
        // The layout itself in doubt: nothing is broken for sure.
        #expect(!DocumentScanner.breaksSurely([issue(.digitInCode, "nationality")], unsure: ["documentCode"]))
        #expect(!DocumentScanner.breaksSurely([issue(.digitInCode, "nationality")], unsure: ["nationality"]))
        // The exit codes are one per status.
        #expect(Set(ScanStatus.allCases.map(\.exitCode)).count == ScanStatus.allCases.count)
    }
}
