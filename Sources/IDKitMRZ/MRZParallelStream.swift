import Foundation

/// A stream of MRZ records processed on the machine's cores, the output in input order: the
/// records are read in batches of 4,096; each batch is split in two (on a machine of more than
/// one core), each half processed into its own buffer by its own worker, and the buffers handed
/// on in order. The batch loop of `idkit validate`, for any front end that validates a stream.
public enum MRZParallelStream {
    /// How many workers a batch is split between: two on a machine of more than one core (a
    /// third costs more in coordination than it gains), else one.
    public static let defaultParts = ProcessInfo.processInfo.activeProcessorCount > 1 ? 2 : 1

    /// Reads `reader` to its end. `process` writes one record's output and says whether it is
    /// accepted (called from several threads at once); `emit` receives each worker's bytes and
    /// counts, in input order.
    public static func run(_ reader: inout MRZRecordReader, parts: Int = defaultParts,
                           process: @Sendable (MRZRecord, inout JSONWriter) -> Bool,
                           emit: (UnsafeRawBufferPointer, _ accepted: Int, _ rejected: Int) -> Void) {
        let batchSize = 4096
        var batch: [MRZRecord] = []
        batch.reserveCapacity(batchSize)
        let outputs = (0..<max(1, parts)).map { _ in PartOutput() }
        while true {
            batch.removeAll(keepingCapacity: true)
            while batch.count < batchSize, let record = reader.next() { batch.append(record) }
            if batch.isEmpty { break }
            let records = batch
            let split = outputs.count == 1 || records.count < 64 ? 1 : outputs.count
            DispatchQueue.concurrentPerform(iterations: split) { part in
                let range = (records.count * part / split)..<(records.count * (part + 1) / split)
                outputs[part].run { w, accepted, rejected in
                    for record in records[range] {
                        if process(record, &w) { accepted += 1 } else { rejected += 1 }
                    }
                }
            }
            for part in 0..<split { outputs[part].drain(emit) }
        }
    }
}

/// One worker's output for a batch: its bytes and counts. Each worker touches only its own.
final class PartOutput: @unchecked Sendable {
    private var writer = JSONWriter(capacity: 1 << 20)
    private var accepted = 0
    private var rejected = 0

    func run(_ body: (inout JSONWriter, inout Int, inout Int) -> Void) {
        body(&writer, &accepted, &rejected)
    }

    func drain(_ body: (UnsafeRawBufferPointer, Int, Int) -> Void) {
        writer.withBytes { body($0, accepted, rejected) }
        writer.reset()
        accepted = 0
        rejected = 0
    }
}
