import IDKitImage

// The outline type: four points and how well the edges support its sides.
extension DocumentDetector {
    /// A four-sided outline the edge search found, before any MRZ is matched to it.
    public struct Outline: Sendable, Equatable {
        /// In contour order (either turning direction).
        public var points: [Point]
        /// Share of the sides that lie on edges (0…1).
        public var support: Double
        /// That share on its worst-supported side: a document has edges along all four, a box
        /// around text or a hull around clutter leaves a side on nothing.
        public var weakestSide: Double
        /// Bit s set where the side from point s to point s+1 lies on the image's border (a
        /// document the frame cuts): `support` and `weakestSide` count the other sides.
        public var cutSides: Int

        public init(points: [Point], support: Double, weakestSide: Double, cutSides: Int = 0) {
            self.points = points
            self.support = support
            self.weakestSide = weakestSide
            self.cutSides = cutSides
        }
    }
}
