internal import IDKitCore
import IDKitMRZ

/// The `idkit` command: a thin layer that turns arguments into calls of the IDKit libraries.
public enum IDKitCommand {
    /// Exit statuses (BSD sysexits where one fits).
    package enum ExitStatus: Int32, Sendable {
        case valid = 0
        /// Some input is not valid (`validate`); for `idkit scan`: some image's MRZ is uncertain.
        case invalid = 1
        /// `idkit scan`: some image's MRZ is read with certainty and breaks a rule (mrzInvalid).
        case documentInvalid = 2
        /// `idkit scan`: some image shows no MRZ (mrzNotFound).
        case notFound = 3
        /// `idkit scan`: some image is too small to hold a readable MRZ (imageTooSmall).
        case imageTooSmall = 4
        /// `idkit scan --sides`: the two images are sides of different documents (sidesMismatch).
        case sidesMismatch = 5
        case usage = 64
        case unreadableInput = 66
        /// A part of IDKit is missing or cannot be loaded: the MRZ recognizer's model, or the
        /// idkit-full program (sysexits' EX_SOFTWARE).
        case software = 70
        /// An output file (`--annotate`) could not be written (sysexits' EX_CANTCREAT).
        case cannotCreateOutput = 73
    }

    package static let version = IDKitVersion.string

    /// What runs a subcommand: its arguments (without the name) and the standard streams in, its
    /// exit status out.
    package typealias Runner = @Sendable ([String], StandardIO) -> ExitStatus

    /// The subcommands, in the order of the overview, each with its help page.
    package static let subcommands: [(name: String, help: String)] = [
        ("validate", Help.validate), ("aamva", Help.aamva), ("barcode", Help.barcode), ("bac", Help.bac),
        ("merge", Help.merge), ("scan", Help.scan), ("serve", Help.serve), ("chip", Help.chip),
    ]

    /// The subcommands this module runs itself: those that read text and decode no image, so that
    /// the `idkit` executable links no image, barcode, crypto or HTTP library and starts as fast as
    /// a program that only prints (the others run in `idkit-full`, ``IDKitFullCommand``).
    package static let textRunners: [String: Runner] = [
        "validate": { ValidateCommand.run($0, io: $1) },
        "aamva": { AAMVACommand.run($0, io: $1) },
    ]

    /// Runs `idkit` with `arguments` (without the program name) and the subcommands of
    /// ``textRunners``; returns the exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        main(arguments, runners: textRunners)
    }

    /// Runs `idkit` with `arguments` and the subcommands `runners` runs.
    package static func main(_ arguments: [String], runners: [String: Runner]) -> Int32 {
        let io = StandardIO()
        let status = run(arguments, io: io, runners: runners)
        io.out.flush()
        io.err.flush()
        return status.rawValue
    }

    package static func run(_ arguments: [String], io: StandardIO, runners: [String: Runner]) -> ExitStatus {
        guard let first = arguments.first else {
            io.err.write(Help.overview)
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        if let run = runners[first] { return run(rest, io) }
        switch first {
        case "help", "--help", "-h":
            io.out.write(subcommands.first { $0.name == rest.first }?.help ?? Help.overview)
            return .valid
        case "--version":
            io.out.write("idkit \(version)\n")
            return .valid
        default:
            if subcommands.contains(where: { $0.name == first }) {
                io.err.write("idkit: '\(first)' is not built into this program\n")
                return .software
            }
            io.err.write("idkit: unknown subcommand '\(first)'\n\n" + Help.overview)
            return .usage
        }
    }
}

/// Buffered writes to a file descriptor: one `write(2)` per 64 KiB, not per result.
package final class OutputSink {
    package let fd: Int32
    package var writer = JSONWriter(capacity: 1 << 17)
    package static let flushThreshold = 1 << 16

    package init(fd: Int32) { self.fd = fd }

    package func write(_ text: String) {
        writer.appendRaw(text)
        flushIfFull()
    }

    /// One exclusive access to the writer for a whole record.
    package func withWriter<R>(_ body: (inout JSONWriter) -> R) -> R { body(&writer) }

    package func flushIfFull() { if writer.count >= OutputSink.flushThreshold { flush() } }

    package func flush() {
        // A closed pipe or a full disk: the rest of the output is dropped, as `write` would.
        writer.withBytes { raw in _ = Result { () throws(SystemCallError) in try SystemCalls.writeAll(fd, raw) } }
        writer.reset()
    }
}

/// Standard output and error, buffered.
package final class StandardIO {
    package let out = OutputSink(fd: 1)
    package let err = OutputSink(fd: 2)
}
