import Foundation
import IDKitImage
import IDKitVIZ
import Testing

/// The visual zone's text through Tesseract, on TestVectors/viz/viz-lines.png (made by
/// make_viz_lines.py; its truth in viz-lines.json): labelled fields with national characters and
/// date forms as data pages print them.
@Suite struct VIZTextRecognizerTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("TestVectors/viz")

    static func page() throws -> (image: GrayImage, truth: [String]) {
        let image = try ImageDecoder.decodeFile(atPath: folder.appendingPathComponent("viz-lines.png").path).image
        let truth = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("viz-lines.json"))) as? [String: Any])
        return (image, try #require(truth["lines"] as? [String]))
    }

    static let recognizer: Result<VIZTextRecognizer, VIZError> = Result { () throws(VIZError) in
        try VIZTextRecognizer()
    }

    @Test("every printed line is read as printed, national characters kept")
    func linesAsPrinted() throws {
        let (image, truth) = try Self.page()
        let lines = try Self.recognizer.get().lines(in: image)
        // Romanian's Ș (S with comma below) comes back as Ş (with cedilla), the form Romanian was
        // long encoded in and Turkish prints: telling them apart is the issuer's business, so the
        // comparison here folds the two.
        func folded(_ s: String) -> String { s.replacingOccurrences(of: "Ş", with: "Ș").replacingOccurrences(of: "Ţ", with: "Ț") }
        #expect(lines.map { folded($0.text) } == truth)
        for line in lines {
            #expect(line.confidence > 0.8, "\(line.text): \(line.confidence)")
            #expect(line.box.height > 20 && line.box.height < 70, "\(line.text): \(line.box)")
            #expect(line.words.map(\.text).joined(separator: " ") == line.text)
        }
    }

    @Test("words come with their boxes inside their line's box, left to right")
    func wordBoxes() throws {
        let (image, _) = try Self.page()
        let lines = try Self.recognizer.get().lines(in: image)
        let surname = try #require(lines.first { $0.text.hasPrefix("Surname") })
        #expect(surname.words.map(\.text) == ["Surname", "/", "Nom", "/", "Apellidos"])
        for (a, b) in zip(surname.words, surname.words.dropFirst()) { #expect(a.box.right <= b.box.left) }
        for w in surname.words {
            #expect(w.box.left >= surname.box.left && w.box.right <= surname.box.right)
            #expect(w.box.top >= surname.box.top && w.box.bottom <= surname.box.bottom)
        }
    }

    @Test("a blank image has no lines; an empty one none either")
    func blank() throws {
        let recognizer = try Self.recognizer.get()
        #expect(try recognizer.lines(in: GrayImage(width: 400, height: 120, filledWith: 240)).isEmpty)
        #expect(try recognizer.lines(in: GrayImage(width: 0, height: 0, pixels: [])).isEmpty)
    }

    @Test("a language whose data is missing is a clear error that names the package")
    func missingLanguage() {
        #expect(throws: VIZError.self) { try VIZTextRecognizer(languages: ["xyz"]) }
        do {
            _ = try VIZTextRecognizer(languages: ["eng", "xyz"])
        } catch {
            #expect(error.kind == .languageDataMissing)
            #expect(error.message.contains("tesseract-ocr-xyz"))
            #expect(error.errorClass == .unavailable)
        }
        do {
            _ = try VIZTextRecognizer(languages: ["../eng"])
        } catch {
            #expect(error.message.contains("not a Tesseract language name"))
        }
    }

    @Test("four threads share one recognizer")
    func threads() async throws {
        let (image, truth) = try Self.page()
        let recognizer = try Self.recognizer.get()
        let results = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<4 { group.addTask { (try? recognizer.lines(in: image).map(\.text)) ?? [] } }
            return await group.reduce(into: [[String]]()) { $0.append($1) }
        }
        let first = try #require(results.first)
        #expect(first.count == truth.count)
        #expect(results.allSatisfy { $0 == first })
    }
}
