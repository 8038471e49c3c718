/// A value made on first use and kept (the thickened ink two band searches share).
final class Memo<Value> {
    private let make: () -> Value
    private var made: Value?
    init(_ make: @escaping () -> Value) { self.make = make }
    var value: Value {
        if let made { return made }
        let v = make()
        made = v
        return v
    }
}
