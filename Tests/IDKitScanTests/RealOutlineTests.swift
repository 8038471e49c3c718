import Foundation
import Testing
import IDKitScan
import IDKitTestSupport

/// The document outlines of the real specimen images of `../shared/testdata/mrz-real`, against the
/// corners labeled by eye in `TestVectors/mrz-real/document-corners.json`, as a ratchet:
/// `TestVectors/mrz-real/document-outlines-expected.json` holds each image's verdicts
/// (``OutlineJudge``), and an image that comes out worse fails, as does one that comes out better
/// than the file says (update the file: the figures only go up). `make bench-detect-real` prints
/// the same judgment as a table.
@Suite(.enabled(if: RealImages.available, "needs ../shared/testdata/mrz-real (the shared real specimen images); absent here"))
struct RealOutlineTests {
    struct Expected: Decodable {
        var source: String
        var images: [String: OutlineJudgment]
    }
    static let labels = try! OutlineLabels.load(root: RealImages.root)
    static let expected = try! JSONDecoder().decode(
        Expected.self, from: Data(contentsOf: RealImages.root.appendingPathComponent("TestVectors/mrz-real/document-outlines-expected.json")))

    @Test func everyLabeledImageHasAnExpectation() {
        #expect(Set(Self.labels.images.map { ($0.file as NSString).lastPathComponent }) == Set(Self.expected.images.keys))
        #expect(Self.labels.images.count == RealImages.labels.count)
    }

    @Test(arguments: Self.labels.images.map(\.file))
    func outlinesAsExpected(_ file: String) throws {
        let label = try #require(Self.labels.images.first { $0.file == file })
        let name = (file as NSString).lastPathComponent
        let expected = try #require(Self.expected.images[name])
        let scan = DocumentScanner().scan(file: RealImages.directory.appendingPathComponent(file).path)
        let entries = scan.documents.map { d in d.outlineCorners.map { $0.corners.map { [$0.x, $0.y] } } }
        let got = OutlineJudge.judge(label, entries: entries)
        #expect(got.documents.count == expected.documents.count)
        for (k, (g, e)) in zip(got.documents, expected.documents).enumerated() {
            #expect(g >= e, "document \(k) came out \(g.rawValue), expected \(e.rawValue) (corner error \(got.errors[k].map { String(format: "%.3f", $0) } ?? "-") of the diagonal)")
            #expect(g <= e, "document \(k) came out \(g.rawValue), better than the expected \(e.rawValue): update document-outlines-expected.json")
        }
        #expect(got.extra <= expected.extra, "\(got.extra) entries of documents that are no document (expected \(expected.extra))")
        #expect(got.extra >= expected.extra, "\(got.extra) entries that are no document, fewer than the expected \(expected.extra): update document-outlines-expected.json")
    }
}

/// The judge itself, on constructed outlines.
struct OutlineJudgeTests {
    static let truth: [[Double]] = [[100, 100], [500, 100], [500, 380], [100, 380]]   // diagonal 488
    static func label(_ documents: [OutlineLabels.Document]) -> OutlineLabels.Image {
        OutlineLabels.Image(file: "x.jpg", imageSize: [600, 480], documents: documents)
    }
    static func moved(_ q: [[Double]], _ dx: Double) -> [[Double]] { q.enumerated().map { $0.offset == 2 ? [$0.element[0] + dx, $0.element[1]] : $0.element } }

    @Test func rightLooseWrongMissedAndExtra() {
        let doc = OutlineLabels.Document(corners: Self.truth, hasMRZ: true, cut: nil)
        #expect(OutlineJudge.judge(Self.label([doc]), entries: [Self.moved(Self.truth, 9)]).documents == [.right])      // 1.8%
        #expect(OutlineJudge.judge(Self.label([doc]), entries: [Self.moved(Self.truth, 11)]).documents == [.loose])     // 2.3%
        #expect(OutlineJudge.judge(Self.label([doc]), entries: [Self.moved(Self.truth, 60)]).documents == [.wrong])     // 12%
        // Turned half way: wrong for a document with an MRZ, right for a side without one.
        let turned = Array(Self.truth[2...] + Self.truth[..<2])
        #expect(OutlineJudge.judge(Self.label([doc]), entries: [turned]).documents == [.wrong])
        #expect(OutlineJudge.judge(Self.label([OutlineLabels.Document(corners: Self.truth, hasMRZ: false, cut: nil)]), entries: [turned]).documents == [.right])
        // No entry there: missed; the MRZ read without an outline is that document, not an extra.
        let far: [[Double]] = [[700, 700], [800, 700], [800, 760], [700, 760]]
        #expect(OutlineJudge.judge(Self.label([doc]), entries: [nil, far]) == OutlineJudgment(documents: [.missed], extra: 1, errors: []))
        // A portrait inside the document is an extra entry.
        let portrait: [[Double]] = [[120, 150], [220, 150], [220, 280], [120, 280]]
        #expect(OutlineJudge.judge(Self.label([doc]), entries: [Self.truth, portrait]) == OutlineJudgment(documents: [.right], extra: 1, errors: []))
        // No edge visible: no outline is right, any outline wrong.
        let unseen = OutlineLabels.Document(corners: nil, hasMRZ: true, cut: nil)
        #expect(OutlineJudge.judge(Self.label([unseen]), entries: [nil]).documents == [.right])
        #expect(OutlineJudge.judge(Self.label([unseen]), entries: [Self.truth]).documents == [.wrong])
    }
}
