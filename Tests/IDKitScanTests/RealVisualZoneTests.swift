import Foundation
import IDKitCore
import IDKitDocument
import IDKitScan
import IDKitTestSupport
import Testing

/// The visual zone of the real specimen images of `../shared/testdata/mrz-real` against the values
/// labeled by eye in `TestVectors/mrz-real/viz-labels.json`, as a ratchet:
/// `TestVectors/mrz-real/viz-expected.json` holds each labeled field's verdict (``VIZJudge``), and a
/// field that comes out worse fails, as does one that comes out better than the file says (write it
/// again with `idkit-bench viz-real DIR --write-expected FILE`: the figures only go up). And never a field reported as matching
/// the MRZ whose value is not what the page prints.
@Suite(.enabled(if: RealImages.available, "needs ../shared/testdata/mrz-real (the shared real specimen images); absent here"))
struct RealVisualZoneTests {
    struct Expected: Decodable {
        var source: String
        var images: [String: [String: VIZVerdict]]
    }
    static let labels = try! VIZLabels.load(root: RealImages.root)
    static let expected = try! JSONDecoder().decode(
        Expected.self, from: Data(contentsOf: RealImages.root.appendingPathComponent("TestVectors/mrz-real/viz-expected.json")))
    static let scanner: DocumentScanner = {
        let day = VIZJudge.referenceDate
        return DocumentScanner(readBarcodes: false, referenceDate: CalendarDate(year: day.year, month: day.month, day: day.day), readVIZ: true)
    }()

    @Test func everyRealImageIsLabeledAndHasAnExpectation() {
        #expect(Set(Self.labels.images.map(\.file)) == Set(RealImages.labels.map { ($0.file as NSString).lastPathComponent }))
        #expect(Set(Self.labels.images.map(\.file)) == Set(Self.expected.images.keys))
    }

    /// The Estonian page prints its MRZ's code `EST` under `Kodakondsus/Nationality`; the
    /// Australian one prints `AUSTRALIAN`, which names no code. Neither goes into the merge: the
    /// document's nationality is the MRZ's code.
    @Test func theNationalityAsPrintedAndWhetherItIsTheMRZsCode() throws {
        let estonian = Self.scanner.scan(file: RealImages.directory.appendingPathComponent("images/064_est-pass.jpg").path)
        let est = try #require(estonian.viz?.fields[.nationality])
        #expect(est.text == "EST")
        #expect(est.matchesMRZ == true)
        #expect(estonian.document?[.nationality].value == "EST")
        #expect(estonian.document?[.nationality].readings[.vizFront] == nil)
        let australian = Self.scanner.scan(file: RealImages.directory.appendingPathComponent("images/022_aus-pass-phone.png").path)
        let aus = try #require(australian.viz?.fields[.nationality])
        #expect(aus.text == "AUSTRALIAN")
        #expect(aus.matchesMRZ == nil)
        #expect(australian.document?[.nationality].value == "AUS")
    }

    @Test(arguments: Self.labels.images.map(\.file))
    func fieldsAsExpected(_ file: String) throws {
        let label = try #require(Self.labels.images.first { $0.file == file })
        let expected = try #require(Self.expected.images[file])
        let scan = Self.scanner.scan(file: RealImages.directory.appendingPathComponent("images/" + file).path)
        var reported: [String: VIZJudge.Reported] = [:]
        for (name, field) in scan.viz?.fields ?? [:] { reported[name.rawValue] = VIZJudge.Reported(text: field.text, value: field.value) }
        let got = VIZJudge.judge(label, reported: reported)
        #expect(Set(got.keys) == Set(expected.keys))
        for (name, e) in expected {
            let g = got[name] ?? .missing
            let value = reported[name].map { " ('\($0.value)')" } ?? ""
            #expect(g >= e, "\(name) came out \(g.rawValue)\(value), expected \(e.rawValue)")
            #expect(g <= e, "\(name) came out \(g.rawValue), better than the expected \(e.rawValue): write viz-expected.json again (idkit-bench viz-real ../shared/testdata/mrz-real --write-expected TestVectors/mrz-real/viz-expected.json)")
        }
        for (name, verdict) in got where verdict == .wrong {
            let field = try #require(DocumentFieldName(rawValue: name))
            #expect(scan.viz?.fields[field]?.matchesMRZ != true, "\(name) matches the MRZ but the page prints '\(label.value(name) ?? "")'")
        }
    }
}
