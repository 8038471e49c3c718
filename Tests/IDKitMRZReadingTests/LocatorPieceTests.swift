import Testing
import Foundation
import IDKitImage
@testable import IDKitMRZReading

/// Joining the pieces of a line that faint print broke (MRZBandLocator.fragmentedPrint).
@Suite struct LocatorPieceTests {
    /// Character centres of a line at 20 px pitch, 3° turned, characters 18 px high.
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
}
