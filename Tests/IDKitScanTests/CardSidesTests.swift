import Foundation
import IDKitCore
import IDKitDocument
import IDKitImage
import IDKitScan
import Testing

/// Both sides of a card read as one document (`idkit scan --sides FRONT BACK`), on generated ID-1
/// cards (TestVectors/viz/make_viz_cards.py): card A's front and back, and card B's front.
@Suite struct CardSidesTests {
    static let folder = GeneratedVisualZoneTests.folder
    static let scanner = DocumentScanner(readBarcodes: false, referenceDate: CalendarDate(year: 2025, month: 1, day: 1))

    static func image(_ name: String) throws -> GrayImage {
        try scanner.uprightImage(file: folder.appendingPathComponent(name).path)
    }

    @Test func theFrontAndTheBackOfOneCardMergeAsOneDocument() throws {
        let scan = Self.scanner.scan(front: try Self.image("card-a-front.png"), back: try Self.image("card-a-back.png"))
        #expect(scan.status == .ok)
        let sides = try #require(scan.sides)
        #expect(sides.match == true)
        #expect(sides.swapped == false)
        #expect(Set(sides.matchedFields).isSuperset(of: [.documentNumber, .dateOfBirth]))
        let document = try #require(scan.document)
        // The front's fields as the front's visual zone, the back's (what the MRZ lacks) as the back's.
        #expect(document[.dateOfBirth].readings[.vizFront] == "1983-06-14")
        #expect(document[.documentNumber].readings[.vizFront] == "L01X00T47")
        #expect(document[.dateOfIssue].value == "2022-03-12")
        #expect(document[.dateOfIssue].source == .vizBack)
        #expect(document.dataMatch.wholeDocument == .match)
    }

    @Test func sidesGivenTheOtherWayRoundAreSwapped() throws {
        let scan = Self.scanner.scan(front: try Self.image("card-a-back.png"), back: try Self.image("card-a-front.png"))
        #expect(scan.status == .ok)
        #expect(scan.sides?.swapped == true)
        #expect(scan.sides?.match == true)
    }

    /// A front of another card is a mismatch: nothing of it is merged, and the status says so.
    @Test func theFrontOfAnotherCardIsAMismatchNotAMerge() throws {
        let scan = Self.scanner.scan(front: try Self.image("card-b-front.png"), back: try Self.image("card-a-back.png"))
        #expect(scan.status == .sidesMismatch)
        #expect(scan.reasonKind == "otherCard")
        let sides = try #require(scan.sides)
        #expect(sides.match == false)
        #expect(sides.matchedFields.isEmpty)
        let document = try #require(scan.document)
        for name: DocumentFieldName in [.lastName, .firstName, .documentNumber, .dateOfBirth] {
            #expect(document[name].readings[.vizFront] == nil, "\(name)")
        }
        // The back's own reading stands: the MRZ is card A's.
        #expect(document[.documentNumber].value == "L01X00T47")
        let json = scan.json(file: "sides")
        #expect(json.contains("\"status\":\"sidesMismatch\""))
        #expect(json.contains("\"match\":false"))
    }

    /// Result redaction covers both sides: the front's printed values and the merged fields of
    /// the names and the date of birth appear nowhere in the JSON.
    @Test func redactionCoversTheFrontToo() throws {
        let settings = RedactionSettings(mode: .fullResult, fields: [.firstName, .lastName, .dateOfBirth], redactMRZ: true)
        let scanner = DocumentScanner(readBarcodes: false, referenceDate: CalendarDate(year: 2025, month: 1, day: 1), redaction: .fixed(settings))
        let scan = scanner.scan(front: try Self.image("card-a-front.png"), back: try Self.image("card-a-back.png"))
        #expect(scan.sides?.match == true)
        let json = scan.json(file: "sides")
        for printed in ["JOHANNA", "ELIF", "14.06.1983", "1983-06-14", "MUELLER"] { #expect(!json.contains(printed), "\(printed)") }
        #expect(json.contains("L01X00T47"))
    }

    /// Two fronts: neither holds an MRZ or a barcode, and the scan says so rather than merging.
    @Test func twoFrontsHoldNothingToMergeOn() throws {
        let scan = Self.scanner.scan(front: try Self.image("card-a-front.png"), back: try Self.image("card-b-front.png"))
        #expect(scan.status == .mrzNotFound)
        #expect(scan.sides?.reasonKind == "noMachineReadableSide")
        #expect(scan.sides?.match == nil)
        #expect(scan.document == nil)
    }

    /// One side twice: the same MRZ on both images.
    @Test func theSameSideTwiceIsNotTakenForAFront() throws {
        let back = try Self.image("card-a-back.png")
        let scan = Self.scanner.scan(front: back, back: back)
        #expect(scan.sides?.reasonKind == "sameSideTwice")
        #expect(scan.sides?.match == nil)
        #expect(scan.sides?.front == nil)
    }
}
