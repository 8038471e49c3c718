import CIDKit
import Glibc

/// Filling the structs of the Arrow C Data Interface
/// (https://arrow.apache.org/docs/format/CDataInterface.html). Everything an exported array or
/// schema points to is its own `malloc` allocation: the array's buffers, its `buffers` and
/// `children` lists, each child struct; the schema's `format` and `name` strings and children.
/// Release frees them, releases the children that were not moved out (a consumer may move a child
/// and mark it released), and marks the struct released (`release = NULL`), as the interface asks.
enum ArrowExport {
    static let releaseArray: @convention(c) (UnsafeMutablePointer<ArrowArray>?) -> Void = { array in
        guard let array, array.pointee.release != nil else { return }
        let a = array.pointee
        if let children = a.children {
            for i in 0..<Int(a.n_children) {
                guard let child = children[i] else { continue }
                if let release = child.pointee.release { release(child) }
                free(child)
            }
            free(children)
        }
        if let dictionary = a.dictionary {
            if let release = dictionary.pointee.release { release(dictionary) }
            free(dictionary)
        }
        if let buffers = a.buffers {
            for i in 0..<Int(a.n_buffers) { free(UnsafeMutableRawPointer(mutating: buffers[i])) }
            free(buffers)
        }
        array.pointee.release = nil
    }

    static let releaseSchema: @convention(c) (UnsafeMutablePointer<ArrowSchema>?) -> Void = { schema in
        guard let schema, schema.pointee.release != nil else { return }
        let s = schema.pointee
        if let children = s.children {
            for i in 0..<Int(s.n_children) {
                guard let child = children[i] else { continue }
                if let release = child.pointee.release { release(child) }
                free(child)
            }
            free(children)
        }
        if let dictionary = s.dictionary {
            if let release = dictionary.pointee.release { release(dictionary) }
            free(dictionary)
        }
        free(UnsafeMutableRawPointer(mutating: s.format))
        free(UnsafeMutableRawPointer(mutating: s.name))
        schema.pointee.release = nil
    }

    /// `count` child arrays and schemas, zeroed, in `malloc`ed lists (owned by the parent once filled).
    static func allocateChildren(_ count: Int) -> (UnsafeMutablePointer<UnsafeMutablePointer<ArrowArray>?>,
                                                   UnsafeMutablePointer<UnsafeMutablePointer<ArrowSchema>?>) {
        let arrays = calloc(count, MemoryLayout<UnsafeMutablePointer<ArrowArray>?>.stride)!
            .bindMemory(to: UnsafeMutablePointer<ArrowArray>?.self, capacity: count)
        let schemas = calloc(count, MemoryLayout<UnsafeMutablePointer<ArrowSchema>?>.stride)!
            .bindMemory(to: UnsafeMutablePointer<ArrowSchema>?.self, capacity: count)
        for i in 0..<count {
            arrays[i] = calloc(1, MemoryLayout<ArrowArray>.stride)!.bindMemory(to: ArrowArray.self, capacity: 1)
            schemas[i] = calloc(1, MemoryLayout<ArrowSchema>.stride)!.bindMemory(to: ArrowSchema.self, capacity: 1)
        }
        return (arrays, schemas)
    }

    static func fill(_ array: UnsafeMutablePointer<ArrowArray>, length: Int, nullCount: Int, buffers: [UnsafeMutableRawPointer?],
                     children: UnsafeMutablePointer<UnsafeMutablePointer<ArrowArray>?>? = nil, count: Int = 0) {
        let list = calloc(max(buffers.count, 1), MemoryLayout<UnsafeRawPointer?>.stride)!
            .bindMemory(to: UnsafeRawPointer?.self, capacity: buffers.count)
        for (i, buffer) in buffers.enumerated() { list[i] = UnsafeRawPointer(buffer) }
        array.initialize(to: ArrowArray(length: Int64(length), null_count: Int64(nullCount), offset: 0,
                                        n_buffers: Int64(buffers.count), n_children: Int64(count), buffers: list,
                                        children: children, dictionary: nil, release: releaseArray, private_data: nil))
    }

    static func fill(_ schema: UnsafeMutablePointer<ArrowSchema>, format: String, name: String,
                     children: UnsafeMutablePointer<UnsafeMutablePointer<ArrowSchema>?>? = nil, count: Int = 0) {
        schema.initialize(to: ArrowSchema(format: UnsafePointer(strdup(format)), name: UnsafePointer(strdup(name)), metadata: nil,
                                          flags: Int64(ARROW_FLAG_NULLABLE), n_children: Int64(count), children: children,
                                          dictionary: nil, release: releaseSchema, private_data: nil))
    }
}

/// A table being built: its columns in order, exported as one struct array ("+s"), the form of
/// a record batch in the C Data Interface.
struct ArrowTable {
    var columns: [(name: String, column: any ArrowColumn)] = []

    /// Exports every column into `array` and `schema`, or throws without touching them (and frees
    /// the columns) when an allocation failed or a column passed 2 GiB.
    func export(rows: Int, to array: UnsafeMutablePointer<ArrowArray>, _ schema: UnsafeMutablePointer<ArrowSchema>) throws(ArrowTableError) {
        var columns = self.columns
        if let failed = columns.first(where: { $0.column.exhausted || $0.column.length != rows }) {
            for i in columns.indices { columns[i].column.discard() }
            throw ArrowTableError(column: failed.name, tooLarge: failed.column.overflowed)
        }
        let (arrays, schemas) = ArrowExport.allocateChildren(columns.count)
        for i in columns.indices { columns[i].column.export(to: arrays[i]!, schemas[i]!, name: columns[i].name) }
        ArrowExport.fill(array, length: rows, nullCount: 0, buffers: [nil], children: arrays, count: columns.count)
        ArrowExport.fill(schema, format: "+s", name: "", children: schemas, count: columns.count)
        schema.pointee.flags = 0
    }
}

/// A table that could not be exported: memory ran out, or a column's bytes passed what int32
/// offsets address.
public struct ArrowTableError: Error, Sendable {
    public var column: String
    public var tooLarge: Bool
    public var message: String {
        tooLarge ? "column \(column) would pass 2 GiB: give fewer rows per call"
                 : "memory ran out while building column \(column)"
    }
}
