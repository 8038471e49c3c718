internal import IDKitCore
import IDKitMRZ

/// The `idkit` command: a thin layer that turns arguments into calls of the IDKit libraries.
public enum IDKitCommand {
    /// Exit statuses (BSD sysexits where one fits).
    public enum ExitStatus: Int32, Sendable {
        case valid = 0
        /// Some input is not valid (`validate`); for `idkit scan`: some image's MRZ is uncertain.
        case invalid = 1
        /// `idkit scan`: some image's MRZ is read with certainty and breaks a rule (mrzInvalid).
        case documentInvalid = 2
        /// `idkit scan`: some image shows no MRZ (mrzNotFound).
        case notFound = 3
        /// `idkit scan`: some image is too small to hold a readable MRZ (imageTooSmall).
        case imageTooSmall = 4
        case usage = 64
        case unreadableInput = 66
        /// The MRZ recognizer's model cannot be loaded (sysexits' EX_SOFTWARE).
        case software = 70
        /// An output file (`--annotate`) could not be written (sysexits' EX_CANTCREAT).
        case cannotCreateOutput = 73
    }

    static let version = IDKitVersion.string

    /// The one table of subcommands: name, what runs it, its help page.
    struct Subcommand: Sendable {
        var name: String
        var run: @Sendable ([String], StandardIO) -> ExitStatus
        var help: String
    }

    static let subcommands: [Subcommand] = [
        Subcommand(name: "validate", run: { ValidateCommand.run($0, io: $1) }, help: Help.validate),
        Subcommand(name: "aamva", run: { AAMVACommand.run($0, io: $1) }, help: Help.aamva),
        Subcommand(name: "barcode", run: { BarcodeCommand.run($0, io: $1) }, help: Help.barcode),
        Subcommand(name: "bac", run: { BACCommand.run($0, io: $1) }, help: Help.bac),
        Subcommand(name: "merge", run: { MergeCommand.run($0, io: $1) }, help: Help.merge),
        Subcommand(name: "scan", run: { ScanCommand.run($0, io: $1) }, help: Help.scan),
        Subcommand(name: "serve", run: { ServeCommand.run($0, io: $1) }, help: Help.serve),
        Subcommand(name: "chip", run: { ChipCommand.run($0, io: $1) }, help: Help.chip),
    ]

    /// Runs `idkit` with `arguments` (without the program name) and returns the exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        let io = StandardIO()
        let status = run(arguments, io: io)
        io.out.flush()
        io.err.flush()
        return status.rawValue
    }

    static func run(_ arguments: [String], io: StandardIO) -> ExitStatus {
        guard let first = arguments.first else {
            io.err.write(Help.overview)
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        if let sub = subcommands.first(where: { $0.name == first }) { return sub.run(rest, io) }
        switch first {
        case "help", "--help", "-h":
            io.out.write(subcommands.first { $0.name == rest.first }?.help ?? Help.overview)
            return .valid
        case "--version":
            io.out.write("idkit \(version)\n")
            return .valid
        default:
            io.err.write("idkit: unknown subcommand '\(first)'\n\n" + Help.overview)
            return .usage
        }
    }
}

/// Buffered writes to a file descriptor: one `write(2)` per 64 KiB, not per result.
final class OutputSink {
    let fd: Int32
    var writer = JSONWriter(capacity: 1 << 17)
    static let flushThreshold = 1 << 16

    init(fd: Int32) { self.fd = fd }

    func write(_ text: String) {
        writer.appendRaw(text)
        flushIfFull()
    }

    /// One exclusive access to the writer for a whole record.
    func withWriter<R>(_ body: (inout JSONWriter) -> R) -> R { body(&writer) }

    func flushIfFull() { if writer.count >= OutputSink.flushThreshold { flush() } }

    func flush() {
        // A closed pipe or a full disk: the rest of the output is dropped, as `write` would.
        writer.withBytes { raw in _ = Result { () throws(SystemCallError) in try SystemCalls.writeAll(fd, raw) } }
        writer.reset()
    }
}

/// Standard output and error, buffered.
final class StandardIO {
    let out = OutputSink(fd: 1)
    let err = OutputSink(fd: 2)
}
