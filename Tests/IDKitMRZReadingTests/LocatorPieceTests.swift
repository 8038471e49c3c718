import Testing
import Foundation
import IDKitImage
import IDKitMRZ
@testable import IDKitMRZReading

/// Joining the pieces of a line that faint print broke (MRZBandLocator.fragmentedPrint), and
/// grouping lines into bands where other print stands beside the zone.
@Suite struct LocatorPieceTests {
    /// Character centers of a line at 20 px pitch, 3° turned, characters 18 px high.
    static func node(_ i: Int, row: Double = 0) -> MRZBandLocator.Node {
        let a = 3 * Double.pi / 180, x = 100 + Double(i) * 20, y = 200 + row
        return MRZBandLocator.Node(center: Point(x: x * cos(a) - y * sin(a), y: x * sin(a) + y * cos(a)), size: 18)
    }

    @Test func piecesOfOneLineJoinAcrossMissingCharacters() throws {
        // Positions 0-43 but 9, 10 and 30 (too faint to be components): three pieces.
        let locator = MRZBandLocator.fragmentedPrint
        let positions = (0..<44).filter { ![9, 10, 30].contains($0) }
        let nodes = positions.map { Self.node($0) }
        let pieces = [Array(0..<9), Array(9..<28), Array(28..<41)].map { locator.makeChain($0, nodes)! }
        let joined = locator.joined(pieces, nodes)
        #expect(joined.count == 1)
        let line = try #require(joined.first)
        #expect(line.members.count == 41)
        #expect(abs(line.pitch - 20) < 0.01)
        #expect(abs(hypot(line.end.x - line.start.x, line.end.y - line.start.y) - 43 * 20) < 0.5)
    }

    @Test func otherLinesAndFarPiecesStayApart() {
        let locator = MRZBandLocator.fragmentedPrint
        // The next MRZ line (1.76 heights below), and a piece of the same line 8 pitches on.
        let nodes = (0..<12).map { Self.node($0) } + (0..<12).map { Self.node($0, row: 32) } + (20..<30).map { Self.node($0) }
        let pieces = [Array(0..<12), Array(12..<24), Array(24..<34)].map { locator.makeChain($0, nodes)! }
        #expect(locator.joined(pieces, nodes).count == 3)
    }

    /// The join search that goes on after a join from where it joined (and passes over pairs whose
    /// boxes stand too far apart) joins the same pieces in the same order as the first search,
    /// which started over after every join: random pieces of random lines, some collinear with
    /// gaps, some parallel, some close to one another.
    @Test func theQuickJoinSearchJoinsWhatTheFirstOneDid() {
        var rng = SeededGenerator(seed: 9303)
        let locator = MRZBandLocator.fragmentedPrint
        func reference(_ chains: [MRZBandLocator.ComponentChain], _ nodes: [MRZBandLocator.Node]) -> [MRZBandLocator.ComponentChain] {
            var chains = chains.sorted { $0.members.count > $1.members.count }
            var merged = true
            while merged {
                merged = false
                search: for a in chains.indices {
                    for b in chains.indices where b != a {
                        guard let chain = locator.join(chains[a], chains[b], nodes) else { continue }
                        chains[a] = chain
                        chains.remove(at: b)
                        merged = true
                        break search
                    }
                }
            }
            return chains
        }
        var joins = 0
        for _ in 0..<400 {
            var nodes: [MRZBandLocator.Node] = [], pieces: [[Int]] = []
            let angle = Double(rng.next() % 360) * Double.pi / 180
            for _ in 0..<(3 + Int(rng.next() % 6)) {
                // A line: its origin near the others (rows 34 px apart), pitch 18-22, pieces of
                // 6-14 characters with gaps of 1-8 positions.
                let row = Double(rng.next() % 8) * 34, shift = Double(rng.next() % 200)
                let pitch = 18 + Double(rng.next() % 5), size = 0.9 * pitch + Double(rng.next() % 3)
                // Centers up to `jitter` px off the line: a short piece's direction is then a few
                // degrees off, and it may join a long one only once joined to another piece.
                let jitter = rng.next() % 9
                var position = 0
                for _ in 0..<(1 + Int(rng.next() % 4)) {
                    let length = 6 + Int(rng.next() % 9)
                    var members: [Int] = []
                    for i in position..<position + length {
                        let x = 500 + shift + Double(i) * pitch, y = 500 + row + Double(rng.next() % (jitter + 1)) - Double(jitter) / 2
                        members.append(nodes.count)
                        nodes.append(MRZBandLocator.Node(center: Point(x: x * cos(angle) - y * sin(angle) + 2000,
                                                                       y: x * sin(angle) + y * cos(angle) + 2000), size: size))
                    }
                    pieces.append(members)
                    position += length + 1 + Int(rng.next() % 8)
                }
            }
            let chains = pieces.compactMap { locator.makeChain($0, nodes) }
            let quick = locator.joined(chains, nodes), first = reference(chains, nodes)
            joins += chains.count - first.count
            #expect(quick.map(\.members) == first.map(\.members))
        }
        #expect(joins > 400, "the pieces join often enough to test the order (\(joins) joins)")
    }

    /// Lines of `count` characters, one per row offset, chained as the locator chains them.
    static func lines(_ rows: [Double], count: Int) -> (chains: [MRZBandLocator.ComponentChain], nodes: [MRZBandLocator.Node]) {
        let locator = MRZBandLocator()
        var nodes: [MRZBandLocator.Node] = []
        var chains: [MRZBandLocator.ComponentChain] = []
        for row in rows {
            let first = nodes.count
            nodes += (0..<count).map { node($0, row: row) }
            chains.append(locator.makeChain(Array(first..<nodes.count), nodes)!)
        }
        return (chains, nodes)
    }

    /// The lines of each band, as the row offsets they were made at.
    static func rows(_ bands: [MRZBand], _ rows: [Double]) -> [[Double]] {
        bands.map { band in
            band.lines.map { line in
                let y = line.componentCenters[0].y
                return rows.min { abs(node(0, row: $0).center.y - y) < abs(node(0, row: $1).center.y - y) }!
            }
        }
    }

    @Test func aFullWidthSerialAboveATD2LeavesTheZoneItsOwnBand() {
        // A serial as long as the zone's lines, 1.9 character heights above them: three lines of
        // 36 are no TD1, and the zone's own two lines are a band beside the serial's pair.
        let rows: [Double] = [0, 34, 68]
        let (chains, _) = Self.lines(rows, count: 36)
        let bands = MRZBandLocator().group(chains, imageSize: (2000, 1000))
        #expect(bands.allSatisfy { $0.format == .td2 })
        #expect(Self.rows(bands, rows).contains([34, 68]))
    }

    @Test func aLineAboveATD1LeavesTheZoneItsOwnBand() {
        // Another zone's last line above a TD1: four lines of 30, the zone the last three.
        let rows: [Double] = [0, 34, 68, 102]
        let (chains, _) = Self.lines(rows, count: 30)
        let bands = MRZBandLocator().group(chains, imageSize: (2000, 1000))
        #expect(bands.allSatisfy { $0.format == .td1 })
        #expect(Self.rows(bands, rows).contains([34, 68, 102]))
    }
}
