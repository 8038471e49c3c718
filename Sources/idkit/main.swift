import IDKitCLI
