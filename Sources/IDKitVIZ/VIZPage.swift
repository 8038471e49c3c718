import IDKitDocument

/// What one document's visual zone says (the merge's input from it is IDKitDocument's
/// `VIZReading`): its text lines and the fields found among them, boxes
/// on the straightened page (``pageWidth`` × ``pageHeight`` pixels at ``dotsPerInch``).
public struct VIZPage: Sendable, Equatable {
    public var lines: [VIZLine]
    public var fields: [DocumentFieldName: VIZField]
    public var pageWidth: Int
    public var pageHeight: Int
    public var dotsPerInch: Double

    public init(lines: [VIZLine], fields: [DocumentFieldName: VIZField], pageWidth: Int, pageHeight: Int, dotsPerInch: Double) {
        self.lines = lines
        self.fields = fields
        self.pageWidth = pageWidth
        self.pageHeight = pageHeight
        self.dotsPerInch = dotsPerInch
    }
}
