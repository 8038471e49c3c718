import IDKitCore
internal import COpenCVShim
internal import CIDKitData
import Foundation

/// IDKit's MRZ character recognizer: a small convolutional network trained on generated OCR-B
/// glyphs that vary what real documents and cameras vary (`scripts/mrz-ocr/glyphs.py`, trained by
/// `scripts/mrz-ocr/train.py`, `make mrz-model`), run by OpenCV's dnn module through
/// `COpenCVShim`.
///
/// Input: a window of 28 × 32 pixels around each character cell of a line rectified to the
/// template scale (``MRZLineReader``: pitch 20 px, cap height 20 px, 4 px padding), as ink
/// (255 − gray) with zero mean and unit spread. Output: 38 logits, the 37 symbols in
/// `OCRBTemplates.symbols` order and then "none" (no character in the cell: a finger or a sticker
/// over it, or blank paper where a misplaced line runs past its text), calibrated on generated
/// validation data (a temperature is folded into the last layer), so that their softmax is a
/// probability the decoder and the verifier can weigh.
///
/// `@unchecked Sendable`: the model bytes are written once in `init` and only read afterwards; the
/// shim keeps one OpenCV net per thread, keyed by their address, so they live as long as the process
/// (the one instance is a static).
final class MRZGlyphModel: @unchecked Sendable {
    static let windowWidth = 28, windowHeight = 32
    /// Window i of a strip starts at x = 20·i (4 px left of the cell), y = 1.
    static let windowTop = 1
    static let symbolCount = 37
    /// The symbols and "none".
    static let outputCount = 38

    /// The model compiled into IDKitMRZReading (`Sources/CIDKitData/mrz-glyphs.onnx`), or the file
    /// `IDKIT_MRZ_MODEL` names; the error when OpenCV cannot read it (``MRZScanner/loadModels()``
    /// reports it: a scan never falls back to the templates in silence).
    static let shared: Result<MRZGlyphModel, MRZModelError> = load(
        name: "the MRZ recognizer", override: "IDKIT_MRZ_MODEL", compiled: idk_data_glyph_model)

    /// The second opinion for hard captures: the same network trained with motion blur of up to a
    /// cap height at any angle on a quarter of its lines (`make mrz-model-degraded`;
    /// `IDKIT_MRZ_MODEL_DEGRADED` names another file). In place of ``shared`` it read 13 of
    /// bench-conditions' 20 motion-blurred photos exactly (10), but verified 26 of the real
    /// specimens, not 28 (two fell within the verification margins), so it reads only a band whose
    /// reading by ``shared`` is not verified: where that reading passes its check digits, with its
    /// evidence averaged with the main model's (taken when that passes them too), and alone where
    /// nothing settles, taken only when it settles (``MRZScanner``).
    static let degraded: Result<MRZGlyphModel, MRZModelError> = load(
        name: "the MRZ recognizer's second opinion", override: "IDKIT_MRZ_MODEL_DEGRADED", compiled: idk_data_glyph_model_degraded)

    /// The model in the file the environment variable `override` names, else the compiled-in one.
    private static func load(name: String, override: String,
                             compiled: (UnsafeMutablePointer<Int>?) -> UnsafePointer<UInt8>?) -> Result<MRZGlyphModel, MRZModelError> {
        if let path = ProcessInfo.processInfo.environment[override], !path.isEmpty {
            guard let data = FileManager.default.contents(atPath: path) else {
                return .failure(MRZModelError(model: name, reason: "\(override) names \(path), which cannot be read"))
            }
            return Result { () throws(MRZModelError) in try MRZGlyphModel(copying: data, name: name, source: path) }
        }
        var length = 0
        guard let bytes = compiled(&length) else { return .failure(MRZModelError(model: name, reason: "no model compiled in")) }
        return Result { () throws(MRZModelError) in
            try MRZGlyphModel(bytes: UnsafeBufferPointer(start: bytes, count: length), name: name, source: "the compiled-in model")
        }
    }

    /// The model's bytes: the compiled-in data (static) or a copy of a file's (kept for the process).
    private let bytes: UnsafeBufferPointer<UInt8>

    init(bytes: UnsafeBufferPointer<UInt8>, name: String, source: String) throws(MRZModelError) {
        var error = [CChar](repeating: 0, count: 512)
        if bytes.isEmpty || idk_dnn_check_onnx(bytes.baseAddress, bytes.count, &error, error.count) != 0 {
            throw MRZModelError(model: name, reason: "OpenCV cannot read \(source): " + (bytes.isEmpty ? "it is empty" : Self.message(error)))
        }
        self.bytes = bytes
    }

    /// A model read from a file: its bytes copied and kept as long as the process runs (the shim
    /// keeps one OpenCV net per thread keyed by their address).
    convenience init(copying data: Data, name: String, source: String) throws(MRZModelError) {
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, data.count))
        _ = copy.initialize(from: data)
        try self.init(bytes: UnsafeBufferPointer(start: copy.baseAddress, count: data.count), name: name, source: source)
    }

    /// Logits for `count` windows (`count` × 32 × 28 floats, already normalized): `count` × 38 floats.
    func logits(_ windows: [Float], count: Int) throws(MRZGlyphModelError) -> [Float] {
        precondition(windows.count == count * Self.windowWidth * Self.windowHeight)
        guard count > 0 else { return [] }
        var out = [Float](repeating: 0, count: count * Self.outputCount)
        var error = [CChar](repeating: 0, count: 512)
        let status = windows.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                idk_dnn_forward(bytes.baseAddress, bytes.count, input.baseAddress, Int32(count), Int32(Self.windowHeight),
                                Int32(Self.windowWidth), output.baseAddress, Int32(Self.outputCount), &error, error.count)
            }
        }
        if status != 0 {
            throw MRZGlyphModelError(message: "OpenCV dnn failed: " + Self.message(error))
        }
        return out
    }

    /// One window's 38 logits as evidence for the 37 symbols, and the probability that the cell
    /// holds no character. "None" says nothing about which symbol is under the cover, so its
    /// probability is spread evenly: evidence(c) = log(p(c) + p(none) / 37). A covered cell thus
    /// gives flat evidence and the decoder falls back on the layout and the check digits.
    static func evidence(_ logits: ArraySlice<Float>) -> (evidence: [Float], none: Float) {
        let top = logits.max() ?? 0
        let total = logits.reduce(Float(0)) { $0 + exp($1 - top) }
        let none = exp(logits[logits.startIndex + symbolCount] - top) / total
        let evidence = logits.prefix(symbolCount).map { log(exp($0 - top) / total + none / Float(symbolCount)) }
        return (evidence, none)
    }

    /// The shim's NUL-terminated message.
    private static func message(_ error: [CChar]) -> String {
        String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Appends window `index` of a strip (`stride` × `rows` gray pixels) to `into`, as the
    /// training script's `glyphs.normalize` does: ink 255 − gray, zero mean, spread at least 8.
    /// Returns the window's spread of gray levels before normalizing (how much there is to read).
    @discardableResult
    static func appendWindow(_ strip: [UInt8], stride: Int, rows: Int, index: Int, into out: inout [Float]) -> Float {
        let x0 = index * OCRBClassifier.width, n = windowWidth * windowHeight
        let start = out.count
        var sum: Float = 0
        for r in 0..<windowHeight {
            let row = (windowTop + r) * stride + x0
            for c in 0..<windowWidth {
                let v = Float(255 - Int(strip[row + c]))
                out.append(v)
                sum += v
            }
        }
        let mean = sum / Float(n)
        var sq: Float = 0
        for i in start..<(start + n) { let d = out[i] - mean; sq += d * d }
        let spread = (sq / Float(n)).squareRoot()
        let inv = 1 / max(spread, 8)
        for i in start..<(start + n) { out[i] = (out[i] - mean) * inv }
        return spread
    }
}

/// The recognizer could not run (OpenCV refused the model or threw).
struct MRZGlyphModelError: Error, Sendable {
    var message: String
}

/// A recognizer model that cannot be loaded: which one and why (``MRZScanner/loadModels()``).
public struct MRZModelError: Error, Sendable, Equatable, CustomStringConvertible {
    public var model: String
    public var reason: String
    public var description: String { "\(model) cannot be loaded: \(reason)" }
}

extension MRZModelError: ClassifiedError {
    public var kindName: String { "modelUnavailable" }
    public var message: String { description }
    public var errorClass: ErrorClass { .unavailable }
}
