import Foundation
import IDKitCLICore

// The text subcommands run here; the others (images, barcodes, chips, merging, the service) in
// idkit-full, which this process becomes: validating an MRZ loads no image library.
let arguments = Array(CommandLine.arguments.dropFirst())
exit(IDKitCommand.needsFullProgram(arguments) ? IDKitCommand.handOver(arguments) : IDKitCommand.main(arguments))
