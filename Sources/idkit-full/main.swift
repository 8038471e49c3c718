import Foundation
import IDKitCLI

// Every subcommand of idkit, the image, barcode, chip and HTTP stack loaded: the `idkit`
// executable runs the text subcommands itself and hands the others to this program.
exit(IDKitFullCommand.main(Array(CommandLine.arguments.dropFirst())))
