// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "IDKit",
    products: [
        // The ICAO 9303 MRZ core: parse, validate, correct and generate machine readable zones.
        .library(name: "IDKitMRZ", targets: ["IDKitMRZ"]),
        // The command-line layer, as a library so that tests and other tools can drive it.
        .library(name: "IDKitCLI", targets: ["IDKitCLI"]),
        .executable(name: "idkit", targets: ["idkit"]),
        .executable(name: "idkit-bench", targets: ["IDKitBenchmarks"]),
    ],
    targets: [
        .target(name: "IDKitMRZ"),
        .target(name: "IDKitCLI", dependencies: ["IDKitMRZ"]),
        .executableTarget(name: "idkit", dependencies: ["IDKitCLI"]),
        .executableTarget(
            name: "IDKitBenchmarks",
            dependencies: ["IDKitMRZ", "IDKitCLI"],
            path: "Benchmarks/IDKitBenchmarks"
        ),
        .testTarget(
            name: "IDKitMRZTests",
            dependencies: ["IDKitMRZ"]
        ),
        .testTarget(
            name: "IDKitCLITests",
            dependencies: ["IDKitCLI", "IDKitMRZ"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
