import IDKitImage

#if canImport(Glibc)
import Glibc
#endif

/// Finds PDF417-like regions and their orientation in a photo, so that zxing-cpp (which reads
/// PDF417 row by row and fails beyond a few degrees of rotation) gets a straightened symbol.
///
/// How: the image gradients are summed into a structure tensor per block of pixels. A PDF417
/// symbol is a field of parallel bars, so its blocks have high gradient energy and one dominant
/// gradient direction (across the bars); text and edges have less of one or the other. Blocks
/// that agree in direction are joined into regions; for each region the edges of the symbol are
/// fitted as four lines in the region's own frame (rows along the gradient direction), which
/// gives a quadrilateral that follows perspective (keystone) as well as rotation.
struct PDF417Locator {
    struct Candidate {
        /// Corners in image coordinates: along the rows from `topLeft` to `topRight`.
        var quad: Quadrilateral
        /// Whether the outline was fitted square to the bars (rotation only) rather than freely.
        var isSquare: Bool
    }

    var block = 8

    func locate(_ image: GrayImage, maxCandidates: Int = 3) -> [Candidate] {
        let w = image.width, h = image.height
        guard w >= 3 * block, h >= 3 * block else { return [] }
        let bw = w / block, bh = h / block
        var sxx = [Float](repeating: 0, count: bw * bh)
        var syy = sxx, sxy = sxx
        image.pixels.withUnsafeBufferPointer { p in
            sxx.withUnsafeMutableBufferPointer { fxx in
                syy.withUnsafeMutableBufferPointer { fyy in
                    sxy.withUnsafeMutableBufferPointer { fxy in
                        // Every other row is enough to measure the texture, and halves the work.
                        var y = 1
                        while y < bh * block - 1, y < h - 1 {
                            let by = y / block
                            let row = y * w
                            for bx in 0..<bw {
                                var axx: Int32 = 0, ayy: Int32 = 0, axy: Int32 = 0
                                let x0 = max(1, bx * block), x1 = min(w - 1, bx * block + block)
                                var x = x0
                                while x < x1 {
                                    let gx = Int32(p[row + x + 1]) - Int32(p[row + x - 1])
                                    let gy = Int32(p[row + x + w]) - Int32(p[row + x - w])
                                    axx &+= gx &* gx
                                    ayy &+= gy &* gy
                                    axy &+= gx &* gy
                                    x += 1
                                }
                                let b = by * bw + bx
                                fxx[b] += Float(axx); fyy[b] += Float(ayy); fxy[b] += Float(axy)
                            }
                            y += 2
                        }
                    }
                }
            }
        }

        // Energy threshold relative to the strongest texture in the image.
        var energies = [Float](repeating: 0, count: bw * bh)
        for i in 0..<(bw * bh) { energies[i] = sxx[i] + syy[i] }
        // The 99.5th percentile from every fourth block is as good as from all, at a quarter of the sort.
        let sorted = stride(from: 0, to: energies.count, by: 4).map { energies[$0] }.sorted()
        let high = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.995))]
        let samplesPerBlock = Float(block * block / 2)
        let energyFloor = max(high * 0.12, samplesPerBlock * 300)

        var angle = [Float](repeating: 0, count: bw * bh)
        var mask = [Bool](repeating: false, count: bw * bh)
        for i in 0..<(bw * bh) where energies[i] > energyFloor {
            let d = sxx[i] - syy[i]
            let coherence = (d * d + 4 * sxy[i] * sxy[i]).squareRoot() / energies[i]
            if coherence > 0.45 {
                mask[i] = true
                angle[i] = 0.5 * atan2f(2 * sxy[i], d)
            }
        }

        // Regions: blocks up to two apart (bridging one weak block) whose bar directions differ
        // by less than ~20°.
        var label = [Int32](repeating: -1, count: bw * bh)
        var regions: [[Int]] = []
        var stack: [Int] = []
        for start in 0..<(bw * bh) where mask[start] && label[start] < 0 {
            let id = Int32(regions.count)
            var members: [Int] = []
            label[start] = id
            stack.append(start)
            while let b = stack.popLast() {
                members.append(b)
                let bx = b % bw, by = b / bw
                for dy in -2...2 {
                    for dx in -2...2 where dx != 0 || dy != 0 {
                        let nx = bx + dx, ny = by + dy
                        guard nx >= 0, ny >= 0, nx < bw, ny < bh else { continue }
                        let n = ny * bw + nx
                        guard mask[n], label[n] < 0 else { continue }
                        var diff = abs(angle[n] - angle[b])
                        if diff > Float.pi / 2 { diff = Float.pi - diff }
                        guard diff < 0.35 else { continue }
                        label[n] = id
                        stack.append(n)
                    }
                }
            }
            regions.append(members)
        }
        let minBlocks = max(12, (bw * bh) / 2000)
        let ranked = regions.filter { $0.count >= minBlocks }.sorted { $0.count > $1.count }.prefix(maxCandidates)
        // Each region twice: edges fitted freely (perspective), then square to the rows (rotation only).
        return ranked.flatMap { members in
            [false, true].compactMap { candidate(for: members, bw: bw, sxx: sxx, syy: syy, sxy: sxy, width: w, height: h, straight: $0) }
        }
    }

    /// The quadrilateral of one region, from lines fitted to its extreme blocks.
    private func candidate(for members: [Int], bw: Int, sxx: [Float], syy: [Float], sxy: [Float],
                           width: Int, height: Int, straight: Bool) -> Candidate? {
        // Each block's tensor normalized by its energy and weighted by its coherence, so that
        // high-contrast print next to the symbol does not pull the direction.
        var cxx = 0.0, cxy = 0.0
        for b in members {
            let e = Double(sxx[b] + syy[b])
            guard e > 0 else { continue }
            let d = Double(sxx[b] - syy[b]) / e, o = Double(2 * sxy[b]) / e
            let coherence = (d * d + o * o).squareRoot()
            cxx += d * coherence * coherence
            cxy += o * coherence * coherence
        }
        let theta = 0.5 * atan2(cxy, cxx)
        let u = (x: cos(theta), y: sin(theta))       // across the bars: along a symbol row
        let v = (x: -sin(theta), y: cos(theta))      // along the bars
        let half = Double(block) / 2
        var pts: [(u: Double, v: Double)] = []
        pts.reserveCapacity(members.count)
        for b in members {
            let x = Double(b % bw * block) + half, y = Double(b / bw * block) + half
            pts.append((x * u.x + y * u.y, x * v.x + y * v.y))
        }
        let bin = Double(block)
        // Left/right edges: the extreme u in each band of v, fitted as u = a + b·v.
        func edges(_ key: (Double, Double) -> (along: Double, across: Double), straight: Bool) -> (lo: (Double, Double), hi: (Double, Double))? {
            var bands: [Int: (lo: Double, hi: Double)] = [:]
            for p in pts {
                let k = key(p.u, p.v)
                let band = Int((k.along / bin).rounded(.down))
                if let e = bands[band] { bands[band] = (min(e.lo, k.across), max(e.hi, k.across)) }
                else { bands[band] = (k.across, k.across) }
            }
            guard bands.count >= 2 else { return nil }
            let keys = bands.keys.sorted()
            // Ignore the outermost bands (partly covered) when there are enough.
            let inner = keys.count > 4 ? Array(keys.dropFirst().dropLast()) : keys
            let lo = inner.map { (Double($0) * bin + bin / 2, bands[$0]!.lo) }
            let hi = inner.map { (Double($0) * bin + bin / 2, bands[$0]!.hi) }
            return (robustLine(lo, straight: straight), robustLine(hi, straight: straight))
        }
        /// Theil–Sen: the median of pairwise slopes, so that a few bands that caught printed text
        /// next to the symbol do not tilt the edge. Slopes beyond what 15–20% keystone gives are
        /// clamped; `straight` forces the edge square to the rows (pure rotation).
        func robustLine(_ values: [(Double, Double)], straight: Bool) -> (Double, Double) {
            let points = values.map { (x: $0.0, y: $0.1) }
            let slope = straight || values.count < 3 ? 0 : max(-0.3, min(0.3, TheilSen.slope(points) ?? 0))
            return (TheilSen.intercept(points, slope: slope), slope)
        }
        guard let side = edges({ (along: $1, across: $0) }, straight: straight),   // u as a function of v
              let cap = edges({ (along: $0, across: $1) }, straight: straight)     // v as a function of u
        else { return nil }
        // Grow outward: half a block for the block centers plus a quiet zone; more at the sides,
        // where the start and stop patterns must not be cut (zxing-cpp reads along the rows).
        let sideMargin = half + 3 * bin, capMargin = half + 2 * bin
        let left = (side.lo.0 - sideMargin, side.lo.1), right = (side.hi.0 + sideMargin, side.hi.1)
        let top = (cap.lo.0 - capMargin, cap.lo.1), bottom = (cap.hi.0 + capMargin, cap.hi.1)
        // A PDF417 is a wide field of bars; a thin tall region is an edge or a line of print.
        let rowLength = right.0 - left.0, barLength = bottom.0 - top.0
        guard rowLength > 0, barLength > 0, rowLength / barLength > 0.5, rowLength / barLength < 20 else { return nil }
        // Intersect u = a + b·v with v = c + d·u.
        func corner(_ s: (Double, Double), _ c: (Double, Double)) -> Point? {
            let denom = 1 - s.1 * c.1
            guard abs(denom) > 1e-6 else { return nil }
            let uu = (s.0 + s.1 * c.0) / denom
            let vv = c.0 + c.1 * uu
            return Point(x: uu * u.x + vv * v.x, y: uu * u.y + vv * v.y)
        }
        guard let tl = corner(left, top), let tr = corner(right, top),
              let br = corner(right, bottom), let bl = corner(left, bottom) else { return nil }
        return Candidate(quad: Quadrilateral(topLeft: tl, topRight: tr, bottomRight: br, bottomLeft: bl),
                         isSquare: straight)
    }
}
