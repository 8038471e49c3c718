import IDKitImage

/// Scores a character cell against the OCR-B reference cells (``OCRBTemplates``) by normalised
/// cross-correlation, which ignores brightness and contrast, at a few shifts around the nominal
/// cell so that a character a pixel or two off its pitch still fits.
struct OCRBClassifier: Sendable {
    static let width = OCRBTemplates.width, height = OCRBTemplates.height
    static let cellSize = width * height
    static let symbolCount = OCRBTemplates.symbols.count

    /// Zero-mean, unit-norm templates: `variants × symbols` cells of `cellSize` floats.
    let templates: [Float]

    static let shared = OCRBClassifier()

    init() {
        let n = Self.cellSize
        var t = [Float](repeating: 0, count: OCRBTemplates.ink.count)
        for k in 0..<(OCRBTemplates.ink.count / n) {
            var mean: Float = 0
            for i in 0..<n { mean += Float(OCRBTemplates.ink[k * n + i]) }
            mean /= Float(n)
            var norm: Float = 0
            for i in 0..<n {
                let v = Float(OCRBTemplates.ink[k * n + i]) - mean
                t[k * n + i] = v
                norm += v * v
            }
            let inv = norm > 0 ? 1 / norm.squareRoot() : 0
            for i in 0..<n { t[k * n + i] *= inv }
        }
        templates = t
    }

    /// The best correlation per symbol (37 values in `OCRBTemplates.symbols` order) for the cell
    /// whose top-left corner is nominally at (`x`, `y`) in `ink` (a strip of ink values,
    /// `stride` wide), trying shifts of ±`reach` pixels.
    func scores(ink: UnsafeBufferPointer<Float>, stride: Int, rows: Int, x: Int, y: Int, reach: Int) -> [Float] {
        let w = Self.width, h = Self.height, n = Self.cellSize
        var best = [Float](repeating: -1, count: Self.symbolCount)
        var window = [Float](repeating: 0, count: n)
        let variants = templates.count / (n * Self.symbolCount)
        templates.withUnsafeBufferPointer { tp in
            for dy in -reach...reach {
                for dx in -reach...reach {
                    let x0 = x + dx, y0 = y + dy
                    guard x0 >= 0, y0 >= 0, x0 + w <= stride, y0 + h <= rows else { continue }
                    // The window, zero-mean and unit-norm.
                    var mean: Float = 0
                    for r in 0..<h { for c in 0..<w { mean += ink[(y0 + r) * stride + x0 + c] } }
                    mean /= Float(n)
                    var norm: Float = 0
                    for r in 0..<h {
                        for c in 0..<w {
                            let v = ink[(y0 + r) * stride + x0 + c] - mean
                            window[r * w + c] = v
                            norm += v * v
                        }
                    }
                    guard norm > 1e-3 else { continue }
                    let inv = 1 / norm.squareRoot()
                    window.withUnsafeBufferPointer { wp in
                        for k in 0..<(variants * Self.symbolCount) {
                            var dot: Float = 0
                            let base = k * n
                            for i in 0..<n { dot += wp[i] * tp[base + i] }
                            let s = dot * inv
                            let symbol = k % Self.symbolCount
                            if s > best[symbol] { best[symbol] = s }
                        }
                    }
                }
            }
        }
        return best
    }
}
