import Foundation
import IDKitImage

// Plane geometry on points that the detector's rules share.
extension DocumentDetector {
    static func signedArea(_ c: [Point]) -> Double {
        var a = 0.0
        for i in 0..<c.count { let p = c[i], n = c[(i + 1) % c.count]; a += p.x * n.y - n.x * p.y }
        return a / 2
    }
    /// Whether `p` lies inside the convex quadrilateral `c`.
    public static func contains(_ c: [Point], _ p: Point) -> Bool { Quadrilateral(c).contains(p) }
    /// Where `p` lies in the quadrilateral `q` (TL, TR, BR, BL) as fractions of its width and height.
    static func fraction(of p: Point, in q: [Point]) -> Point {
        let unit = [Point(x: 0, y: 0), Point(x: 1, y: 0), Point(x: 1, y: 1), Point(x: 0, y: 1)]
        guard let h = Homography(from: q, to: unit) else { return Point(x: 0.5, y: 0.5) }
        return h.apply(p)
    }
    /// The mean of the points `q`.
    static func centroid(_ q: [Point]) -> Point { scale(q.reduce(Point(x: 0, y: 0), add), 1 / Double(max(q.count, 1))) }
    static func distance(_ a: Point, _ b: Point) -> Double { hypot(a.x - b.x, a.y - b.y) }
    static func sub(_ a: Point, _ b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    static func add(_ a: Point, _ b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    static func scale(_ a: Point, _ k: Double) -> Point { Point(x: a.x * k, y: a.y * k) }
    static func neg(_ a: Point) -> Point { Point(x: -a.x, y: -a.y) }
    static func dot(_ a: Point, _ b: Point) -> Double { a.x * b.x + a.y * b.y }
    /// The middle of the segment a-b.
    static func middle(_ a: Point, _ b: Point) -> Point { Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2) }
    /// The distance from `p` to the segment a-b.
    static func segmentDistance(_ p: Point, _ a: Point, _ b: Point) -> Double {
        let d = sub(b, a), l2 = max(1e-12, dot(d, d))
        let t = min(1, max(0, dot(sub(p, a), d) / l2))
        return distance(p, add(a, scale(d, t)))
    }
    /// The unit normal of the segment a-b on the side away from `center`.
    static func outwardNormal(_ a: Point, _ b: Point, _ center: Point) -> Point {
        let u = unit(sub(b, a)), n = Point(x: u.y, y: -u.x)
        return dot(n, sub(center, a)) > 0 ? neg(n) : n
    }
    /// An outline's width and height (each the mean of its two sides) and their directions (from
    /// corner 0 to 1, and 0 to 3).
    static func dimensions(_ q: [Point]) -> [(length: Double, direction: Point)] {
        [((distance(q[0], q[1]) + distance(q[3], q[2])) / 2, unit(sub(q[1], q[0]))),
         ((distance(q[0], q[3]) + distance(q[1], q[2])) / 2, unit(sub(q[3], q[0])))]
    }
    static func unit(_ a: Point) -> Point { let l = max(1e-9, hypot(a.x, a.y)); return Point(x: a.x / l, y: a.y / l) }
}
