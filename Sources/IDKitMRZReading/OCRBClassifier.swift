import IDKitImage

/// Scores a character cell against the OCR-B reference cells (``OCRBTemplates``) by normalized
/// cross-correlation, which ignores brightness and contrast, at a few shifts around the nominal
/// cell so that a character a pixel or two off its pitch still fits.
struct OCRBClassifier: Sendable {
    static let width = OCRBTemplates.width, height = OCRBTemplates.height
    static let cellSize = width * height
    static let symbolCount = OCRBTemplates.symbols.count

    /// Zero-mean, unit-norm templates: `variants × symbols` cells of `cellSize` floats, as
    /// 8-lane vectors (the cell size, 520, is a multiple of 8).
    let templates: [SIMD8<Float>]
    static let lanes = cellSize / 8

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
        templates = (0..<(t.count / 8)).map { SIMD8<Float>(t[($0 * 8)..<($0 * 8 + 8)]) }
    }

    /// The best correlation per symbol (37 values in `OCRBTemplates.symbols` order) for the cell
    /// whose top-left corner is nominally at (`x`, `y`) in `ink` (a strip of ink values,
    /// `stride` wide), trying shifts of ±`reach` pixels. With `only`, just those symbols are
    /// compared (the others score −1).
    func scores(ink: UnsafeBufferPointer<Float>, stride: Int, rows: Int, x: Int, y: Int, reachX: Int, reachY: Int, only: [Int]? = nil) -> [Float] {
        let w = Self.width, h = Self.height, n = Self.cellSize, lanes = Self.lanes
        // Every shift's window, zero-mean and unit-norm, one after another (`lanes` vectors each).
        var windows: [SIMD8<Float>] = [], inverseNorms: [Float] = []
        windows.reserveCapacity((2 * reachX + 1) * (2 * reachY + 1) * lanes)
        var flat = [Float](repeating: 0, count: n)
        flat.withUnsafeMutableBufferPointer { f in
            for dy in -reachY...reachY {
                for dx in -reachX...reachX {
                    let x0 = x + dx, y0 = y + dy
                    guard x0 >= 0, y0 >= 0, x0 + w <= stride, y0 + h <= rows else { continue }
                    var mean: Float = 0
                    for r in 0..<h {
                        let row = (y0 + r) * stride + x0
                        for c in 0..<w {
                            let v = ink[row + c]
                            f[r * w + c] = v
                            mean += v
                        }
                    }
                    mean /= Float(n)
                    // Appended in place (no array per shift); taken back when the window is blank.
                    // Eight lanes loaded straight from the buffer (a vector made of an array slice
                    // costs more than the correlations it feeds).
                    var norm: Float = 0
                    let m = SIMD8<Float>(repeating: mean)
                    for i in 0..<lanes {
                        let b = i * 8
                        let v = SIMD8<Float>(f[b], f[b + 1], f[b + 2], f[b + 3], f[b + 4], f[b + 5], f[b + 6], f[b + 7]) - m
                        windows.append(v)
                        norm += (v * v).sum()
                    }
                    guard norm > 1e-3 else { windows.removeLast(lanes); continue }
                    inverseNorms.append(1 / norm.squareRoot())
                }
            }
        }
        var best = [Float](repeating: -1, count: Self.symbolCount)
        let shifts = windows.count / lanes, kinds = templates.count / lanes
        // Four shifts against one template at a time: each template vector is loaded once for
        // four independent sums (one running sum alone waits on its own additions).
        templates.withUnsafeBufferPointer { tp in
            windows.withUnsafeBufferPointer { wp in
                guard let t0 = tp.baseAddress, let w = wp.baseAddress else { return }
                for k in 0..<kinds {
                    let symbol = k % Self.symbolCount
                    if let only, !only.contains(symbol) { continue }
                    let t = t0 + k * lanes
                    var s = 0
                    while s < shifts {
                        let group = min(4, shifts - s)
                        // Pointers, not indices: the sums' loop then holds loads and arithmetic
                        // only (an index per operand costs as much as the arithmetic).
                        let p0 = w + s * lanes, p1 = w + min(s + 1, shifts - 1) * lanes
                        let p2 = w + min(s + 2, shifts - 1) * lanes, p3 = w + min(s + 3, shifts - 1) * lanes
                        var a0 = SIMD8<Float>.zero, a1 = SIMD8<Float>.zero, a2 = SIMD8<Float>.zero, a3 = SIMD8<Float>.zero
                        for i in 0..<lanes {
                            let v = t[i]
                            a0 += p0[i] * v
                            a1 += p1[i] * v
                            a2 += p2[i] * v
                            a3 += p3[i] * v
                        }
                        let sums = SIMD4<Float>(a0.sum(), a1.sum(), a2.sum(), a3.sum())
                        for g in 0..<group {
                            let c = sums[g] * inverseNorms[s + g]
                            if c > best[symbol] { best[symbol] = c }
                        }
                        s += group
                    }
                }
            }
        }
        return best
    }
}
