import Foundation
import IDKitImage
internal import CTesseractShim
// Links Tesseract and Leptonica (the module's `link` lines): tesseract.pc names Leptonica only
// privately, and the shim calls it (`setMsgSeverity`).
internal import CTesseract
import Synchronization

/// Reads the text lines of a document's visual inspection zone with Tesseract 5 (its LSTM
/// engine), each with its words, their boxes and confidences. The national characters of the
/// Latin-script issuers are kept as printed (`Ö`, `É`, `Ł`, `Ș`) when their language is loaded.
///
/// One recognizer holds one Tesseract engine with its language data (loading takes tens of
/// milliseconds per language, so keep a recognizer and reuse it); calls from several threads take
/// turns on it. Each language loaded adds to the work of every line: load the issuer's languages,
/// not all of them.
public final class VIZTextRecognizer: Sendable {
    /// The language data IDKit installs (`scripts/apt-packages.txt`), by Tesseract's names:
    /// `Latin`, the script model that reads every Latin-script issuer's letters in one pass, and
    /// the issuers' languages, for reading one issuer's print with its own model.
    public static let installedLanguages = ["Latin", "eng", "deu", "fra", "spa", "ita", "nld", "por", "pol", "ces", "swe", "fin", "hun", "ron"]

    /// Where Tesseract's language data is: `TESSDATA_PREFIX` when set, else Debian's folder.
    public static var defaultDataPath: String {
        ProcessInfo.processInfo.environment["TESSDATA_PREFIX"] ?? "/usr/share/tesseract-ocr/5/tessdata"
    }

    public let languages: [String]
    private let engine: Mutex<Engine>

    /// Loads `languages` (Tesseract's names, as `["Latin"]` or `["eng", "deu"]`) from `dataPath`.
    /// Throws `languageDataMissing`, naming the Debian package, when a language's data is not there.
    /// The default, the Latin script model, keeps the national characters of every Latin-script
    /// issuer; a list of languages instead makes Tesseract read each line once per language.
    public init(languages: [String] = ["Latin"], dataPath: String = VIZTextRecognizer.defaultDataPath) throws(VIZError) {
        guard !languages.isEmpty else { throw VIZError(.languageDataMissing, "no language given to read the visual zone in") }
        for language in languages {
            guard language.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "_") }) else {
                throw VIZError(.languageDataMissing, "'\(language.prefix(20))' is not a Tesseract language name (as eng, deu)")
            }
            let file = (dataPath as NSString).appendingPathComponent("\(language).traineddata")
            guard FileManager.default.isReadableFile(atPath: file) else {
                let package = language == "Latin" ? "tesseract-ocr-script-latn" : "tesseract-ocr-\(language)"
                throw VIZError(.languageDataMissing, "no Tesseract data for '\(language)' at \(file) (Debian: \(package))")
            }
        }
        var message = [CChar](repeating: 0, count: 256)
        guard let handle = idk_tess_open(dataPath, languages.joined(separator: "+"), &message, message.count) else {
            throw VIZError(.languageDataMissing, String(cString: message) + " (\(languages.joined(separator: "+")) at \(dataPath))")
        }
        self.languages = languages
        engine = Mutex(Engine(handle))
    }

    /// How the text is laid out, as Tesseract's page segmentation modes say it.
    public enum Layout: Int32, Sendable {
        /// Columns and blocks found by Tesseract (mode 3): a document's page.
        case page = 3
        /// One uniform block of lines (mode 6).
        case block = 6
        /// Words scattered anywhere, in no order (mode 11).
        case sparse = 11
    }

    /// How the image is turned into ink and paper before the text is read.
    public enum Thresholding: Int32, Sendable {
        /// One Otsu threshold for the whole image: clean print on plain paper.
        case global = 0
        /// Sauvola's local threshold: a document's guilloche, tint and portrait defeat a global one.
        case local = 2
    }

    /// The text lines of `image` (a straightened page or a zone of it), top to bottom as Tesseract
    /// finds them; `pixelsPerInch` is the image's scale (300 for a document warped at 300 dpi).
    public func lines(in image: GrayImage, pixelsPerInch: Int = 300, layout: Layout = .page,
                      thresholding: Thresholding = .local) throws(VIZError) -> [VIZLine] {
        guard image.width > 0, image.height > 0 else { return [] }
        let result: Result<[VIZLine], VIZError> = engine.withLock { engine in
            var lines: UnsafeMutablePointer<idk_tess_text>?, words: UnsafeMutablePointer<idk_tess_text>?
            var lineCount: Int32 = 0, wordCount: Int32 = 0
            var message = [CChar](repeating: 0, count: 256)
            let status = image.pixels.withUnsafeBufferPointer { pixels in
                idk_tess_recognize(engine.handle, pixels.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width),
                                   Int32(pixelsPerInch), layout.rawValue, thresholding.rawValue, &lines, &lineCount, &words, &wordCount, &message, message.count)
            }
            defer {
                idk_tess_free_texts(lines, lineCount)
                idk_tess_free_texts(words, wordCount)
            }
            guard status == 0 else { return .failure(VIZError(.recognitionFailed, String(cString: message))) }
            return .success(Self.assemble(lines: UnsafeBufferPointer(start: lines, count: Int(lineCount)),
                                          words: UnsafeBufferPointer(start: words, count: Int(wordCount))))
        }
        return try result.get()
    }

    /// Lines with their words; a line's text is its words joined by single spaces (Tesseract's own
    /// line text ends in a newline and may hold runs of spaces).
    private static func assemble(lines: UnsafeBufferPointer<idk_tess_text>, words: UnsafeBufferPointer<idk_tess_text>) -> [VIZLine] {
        func box(_ t: idk_tess_text) -> VIZBox { VIZBox(left: Int(t.left), top: Int(t.top), right: Int(t.right), bottom: Int(t.bottom)) }
        func text(_ t: idk_tess_text) -> String { t.text.map { String(cString: $0) } ?? "" }
        var byLine = [[VIZWord]](repeating: [], count: lines.count)
        for w in words where Int(w.line) >= 0 && Int(w.line) < lines.count {
            let t = text(w).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !t.isEmpty else { continue }
            byLine[Int(w.line)].append(VIZWord(text: t, confidence: Double(w.confidence) / 100, box: box(w)))
        }
        return lines.enumerated().compactMap { k, line in
            let lineWords = byLine[k]
            guard !lineWords.isEmpty else { return nil }
            return VIZLine(text: lineWords.map(\.text).joined(separator: " "), confidence: Double(line.confidence) / 100,
                           box: box(line), words: lineWords)
        }
    }
}

/// The engine's handle, closed with the recognizer.
private final class Engine: @unchecked Sendable {
    // @unchecked: used only inside the recognizer's Mutex.
    let handle: OpaquePointer

    init(_ handle: OpaquePointer) { self.handle = handle }

    deinit { idk_tess_close(handle) }
}
