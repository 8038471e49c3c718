import IDKitCLICore

/// `idkit` with every subcommand: those of ``IDKitCommand/textRunners`` and those that read images,
/// barcodes and chips, merge sources or serve HTTP. Run by the `idkit-full` executable, which the
/// `idkit` executable hands these subcommands to.
public enum IDKitFullCommand {
    static let runners: [String: IDKitCommand.Runner] = IDKitCommand.textRunners.merging([
        "barcode": { BarcodeCommand.run($0, io: $1) },
        "bac": { BACCommand.run($0, io: $1) },
        "merge": { MergeCommand.run($0, io: $1) },
        "scan": { ScanCommand.run($0, io: $1) },
        "serve": { ServeCommand.run($0, io: $1) },
        "chip": { ChipCommand.run($0, io: $1) },
    ]) { $1 }

    /// Runs `idkit` with `arguments` (without the program name); returns the exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        IDKitCommand.main(arguments, runners: runners)
    }
}
