import IDKitCLI
import Foundation
exit(IDKitCommand.main(Array(CommandLine.arguments.dropFirst())))
