import Foundation
import IDKitImage
import IDKitMRZ

// A band moved along its lines: past the image's edge, or past blank cells at one end.
extension MRZScanner {
    /// A band found level with the image's edge, moved by one position beyond it: where the photo
    /// cuts the MRZ through its first (or last) character, the locator finds the characters in
    /// view and lays the layout's length out from the first of them, so every character is read
    /// one position early. Moved, the cell beyond the edge is not seen
    /// (``MRZLineReader/mostlyOutside``): the layout and the check digits fill it in, unverified,
    /// and the check digits judge whether the move was right. Read only when the band as found
    /// gives no valid MRZ. One position, not more: each move is another read of an image that
    /// may simply hold an invalid MRZ (a Romanian ID's digits in its nationality, its card cut
    /// tight), and moves of two positions would more than double the reads of such a scan.
    static func beyondEdge(_ band: MRZBand, width: Int, height: Int) -> [MRZBand] {
        [-1, 1].compactMap { positions in
            let moved = band.shifted(by: positions)
            let outside = moved.cellsOutside(width: width, height: height)
            let entering = positions < 0 ? 0 : band.lineLength - 1
            return !outside.isEmpty && outside.allSatisfy({ $0[entering] >= MRZLineReader.mostlyOutside }) ? moved : nil
        }
    }

    /// When the network finds blank cells at one end of the band (on most lines), the band moved
    /// by that many positions towards its other end: the text the band missed lies there. Read
    /// only when the band as found gives no valid MRZ (the move is a guess; the check digits judge).
    /// With `bothEnds`, blank cells at both ends give both moves: a finger over a line's first
    /// characters leaves them blank as well as the paper past its end, where the locator laid the
    /// layout's length out from the first character in view. Not for a band that is a guess
    /// already: a TD2 widened to a TD3's length is blank at both ends, and moved, its TD3 check
    /// digits fall on blank cells that the decoder fills to pass.
    static func realigned(_ band: MRZBand, _ scores: MRZScores, bothEnds: Bool) -> [MRZBand] {
        let (leading, trailing) = scores.blankEnds
        let limit = band.lineLength / 3
        guard bothEnds || leading == 0 || trailing == 0 else { return [] }
        return (trailing > 0 && trailing < limit ? [band.shifted(by: -trailing)] : [])
            + (leading > 0 && leading < limit ? [band.shifted(by: leading)] : [])
    }
}
