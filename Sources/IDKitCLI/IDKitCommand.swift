import IDKitMRZ

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `idkit` command: a thin layer that turns arguments into calls of the IDKit libraries.
public enum IDKitCommand {
    /// Exit statuses (BSD sysexits where one fits).
    public enum ExitStatus: Int32 {
        case valid = 0
        case invalid = 1
        case usage = 64
        case unreadableInput = 66
    }

    static let version = "0.1.0"

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
        switch first {
        case "validate": return ValidateCommand.run(rest, io: io)
        case "aamva": return AAMVACommand.run(rest, io: io)
        case "barcode": return BarcodeCommand.run(rest, io: io)
        case "bac": return BACCommand.run(rest, io: io)
        case "merge": return MergeCommand.run(rest, io: io)
        case "scan": return ScanCommand.run(rest, io: io)
        case "help", "--help", "-h":
            switch rest.first {
            case "validate": io.out.write(Help.validate)
            case "aamva": io.out.write(Help.aamva)
            case "barcode": io.out.write(Help.barcode)
            case "bac": io.out.write(Help.bac)
            case "merge": io.out.write(Help.merge)
            case "scan": io.out.write(Help.scan)
            default: io.out.write(Help.overview)
            }
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
        writer.withBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n <= 0 { if errno == EINTR { continue }; break }
                offset += n
            }
        }
        writer.reset()
    }
}

/// Standard output and error, buffered.
final class StandardIO {
    let out = OutputSink(fd: 1)
    let err = OutputSink(fd: 2)
}
