// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "IDKit",
    products: [
        // What every module shares and nothing else provides: calendar dates, hex, size-limited file reads, the JSON writer and key.
        .library(name: "IDKitCore", targets: ["IDKitCore"]),
        // The ICAO 9303 MRZ core: parse, validate, correct and generate machine readable zones.
        .library(name: "IDKitMRZ", targets: ["IDKitMRZ"]),
        // AAMVA DL/ID barcode payloads (US and Canadian driver licenses and ID cards).
        .library(name: "IDKitAAMVA", targets: ["IDKitAAMVA"]),
        // Image decoding (PNG, JPEG, PGM, BMP, TIFF, WebP, GIF, HEIC, JPEG 2000) and the geometry the readers need.
        .library(name: "IDKitImage", targets: ["IDKitImage"]),
        // Barcode reading: PDF417 through zxing-cpp with IDKit's own locator, 1D and QR through zbar.
        .library(name: "IDKitBarcode", targets: ["IDKitBarcode"]),
        // Chip access: BAC keys and mutual authentication, PACE passwords (ICAO 9303-11), through libcrypto.
        .library(name: "IDKitChip", targets: ["IDKitChip"]),
        // One document result from MRZ, barcode and VIZ readings: priority, data match, redaction.
        .library(name: "IDKitDocument", targets: ["IDKitDocument"]),
        // MRZ reading from images: locate the band, read the characters (the OpenCV dnn recognizer),
        // decode them with the layout's rules and check digits, and judge whether to trust them.
        .library(name: "IDKitMRZReading", targets: ["IDKitMRZReading"]),
        .library(name: "IDKitDocumentDetection", targets: ["IDKitDocumentDetection"]),
        .library(name: "IDKitVIZ", targets: ["IDKitVIZ"]),
        // The image front end: a thin orchestration of MRZ reading, barcode reading and merging for
        // one photo or scan, with the image's quality, annotation and redaction.
        .library(name: "IDKitScan", targets: ["IDKitScan"]),
        // The command-line layer, as a library so that tests and other tools can drive it.
        .library(name: "IDKitCLI", targets: ["IDKitCLI"]),
        // libidkit.so: the C interface (Sources/CIDKit/include/idkit.h) that Python, Go, Java and
        // Node call in-process; the Python package in python/ loads it.
        .library(name: "IDKitC", type: .dynamic, targets: ["IDKitCABI"]),
        .executable(name: "idkit", targets: ["idkit"]),
        .executable(name: "idkit-full", targets: ["idkit-full"]),
        // Writes docs/schemas, the JSON Schemas of every contract (`make schemas`).
        .executable(name: "idkit-schemas", targets: ["idkit-schemas"]),
        .executable(name: "idkit-bench", targets: ["IDKitBenchmarks"]),
        // libFuzzer harnesses (built by `make fuzz` with -sanitize=fuzzer,address); without the
        // fuzzer it replays saved inputs: the regression cases in TestVectors/fuzz.
        .executable(name: "idkit-fuzz", targets: ["IDKitFuzz"]),
    ],
    targets: [
        // Dependency-free primitives every other module uses.
        .target(name: "IDKitCore"),
        .target(name: "IDKitMRZ", dependencies: ["IDKitCore"]),
        .target(name: "IDKitAAMVA", dependencies: ["IDKitCore"]),

        // C libraries from Debian, one system-library target each, found with pkg-config.
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg-dev"])]),
        .systemLibrary(name: "CZBar", pkgConfig: "zbar", providers: [.apt(["libzbar-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CZXing", pkgConfig: "zxing", providers: [.apt(["libzxing-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CTIFF", pkgConfig: "libtiff-4", providers: [.apt(["libtiff-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CHeif", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CGIF", pkgConfig: "libgif", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "COpenJPEG", pkgConfig: "libopenjp2", providers: [.apt(["libopenjp2-7-dev"])]),
        // OpenCV's dnn (the MRZ character recognizer). Debian's narrow packages ship no .pc file:
        // scripts/pkgconfig/idkit-opencv.pc, installed by scripts/install-deps, names the include path.
        .systemLibrary(name: "COpenCV", pkgConfig: "idkit-opencv",
                       providers: [.apt(["libopencv-dnn-dev", "libopencv-imgproc-dev", "libopencv-core-dev"])]),
        // The image libraries behind one C interface: setjmp-based error handling for libjpeg,
        // libpng's simplified API, libtiff, libwebp, giflib and libheif with every size checked
        // before allocation, and a small reader of uncompressed BMP.
        .target(name: "CImageCodecs", dependencies: ["CPNG", "CJPEG", "CTIFF", "CWebP", "CHeif", "CGIF", "COpenJPEG"]),
        // zxing-cpp behind a C interface that catches every exception.
        .target(name: "CZXingShim", dependencies: ["CZXing"]),
        // OpenCV's dnn behind a C interface that catches every exception.
        .target(name: "COpenCVShim", dependencies: ["COpenCV"]),
        // Tesseract 5 (the visual zone's text) behind a C interface that catches every exception.
        .systemLibrary(name: "CTesseract", pkgConfig: "tesseract", providers: [.apt(["libtesseract-dev"])]),
        .target(name: "CTesseractShim", dependencies: ["CTesseract"]),

        .target(name: "IDKitImage", dependencies: ["IDKitCore", "CImageCodecs", "COpenCVShim"]),
        // `idkit serve`: libmicrohttpd behind a C shim (its daemon starts with a variadic call).
        .target(name: "CHTTPShim", dependencies: ["CMicroHTTPD"]),
        .target(name: "IDKitService", dependencies: ["IDKitCore", "IDKitMRZ", "IDKitAAMVA", "IDKitImage", "IDKitBarcode", "IDKitScan", "IDKitDocument", "IDKitChip", "IDKitVIZ", "CHTTPShim"]),
        .target(name: "IDKitBarcode", dependencies: ["IDKitCore", "IDKitImage", "CZXingShim", "CZBar"]),
        .target(name: "IDKitChip", dependencies: ["IDKitCore", "IDKitMRZ", "CCrypto"]),
        .target(name: "IDKitDocument", dependencies: ["IDKitCore", "IDKitMRZ", "IDKitAAMVA", "IDKitChip"]),
        // The recognizer's models and the OCR-B templates, compiled in from their files (C23 #embed).
        .target(name: "CIDKitData", exclude: ["README.md", "mrz-glyphs.onnx", "mrz-glyphs-degraded.onnx", "ocrb-templates.gray"]),
        .target(name: "IDKitMRZReading", dependencies: ["IDKitCore", "IDKitMRZ", "IDKitImage", "COpenCVShim", "CIDKitData"]),
        // The visual zone's text (Tesseract) and the MRZ's fields in it.
        .target(name: "IDKitVIZ", dependencies: ["IDKitCore", "IDKitMRZ", "IDKitDocument", "IDKitImage", "CTesseractShim", "CTesseract"]),
        // Documents in an image: outlines (OpenCV imgproc), format, corners in reading order.
        .target(name: "IDKitDocumentDetection", dependencies: ["IDKitMRZ", "IDKitImage", "IDKitMRZReading", "COpenCVShim"]),
        .target(name: "IDKitScan", dependencies: ["IDKitCore", "IDKitMRZ", "IDKitAAMVA", "IDKitImage", "IDKitMRZReading", "IDKitBarcode",
                                                  "IDKitDocumentDetection",
                                                  "IDKitDocument", "IDKitVIZ"]),
        // The command line's text subcommands (validate, aamva), its arguments, help and output:
        // all the `idkit` executable links, so that it starts as fast as a program that only prints.
        .target(name: "IDKitCLICore", dependencies: ["IDKitCore", "IDKitMRZ", "IDKitAAMVA"]),
        .target(name: "IDKitCLI", dependencies: ["IDKitCLICore", "IDKitCore", "IDKitMRZ", "IDKitAAMVA", "IDKitImage", "IDKitBarcode",
                                                 "IDKitChip", "IDKitDocument", "IDKitMRZReading", "IDKitScan", "IDKitService"]),
        // The C interface: idkit.h and the one function written in C (freeing a result)...
        .target(name: "CIDKit"),
        // Columns for data pipelines: MRZ and AAMVA tables filled into Arrow C Data Interface buffers.
        .target(name: "IDKitArrow", dependencies: ["CIDKit", "IDKitCore", "IDKitMRZ", "IDKitAAMVA"]),
        // ...and the exports, bytes in and JSON out through the same encoders as the command line.
        .target(name: "IDKitCABI", dependencies: ["CIDKit", "IDKitArrow", "IDKitCore", "IDKitMRZ", "IDKitAAMVA", "IDKitImage", "IDKitChip",
                                                  "IDKitDocument", "IDKitScan", "IDKitVIZ"]),
        // The JSON Schema of every contract, by file name, from the descriptions beside the writers;
        // the C interface's among them, so this target links the C interface's Swift code.
        .target(name: "IDKitSchemas", dependencies: ["IDKitCore", "IDKitCLI", "IDKitCLICore", "IDKitCABI", "IDKitService", "IDKitMRZ",
                                                     "IDKitAAMVA", "IDKitScan", "IDKitDocument", "IDKitChip"]),
        .executableTarget(name: "idkit-schemas", dependencies: ["IDKitSchemas"]),
        // `idkit` runs the text subcommands and hands the others to `idkit-full` beside it.
        .executableTarget(name: "idkit", dependencies: ["IDKitCLICore"]),
        .executableTarget(name: "idkit-full", dependencies: ["IDKitCLI"]),
        .executableTarget(
            name: "IDKitBenchmarks",
            dependencies: ["IDKitMRZ", "IDKitCLI", "IDKitAAMVA", "IDKitImage", "IDKitBarcode", "IDKitChip",
                           "IDKitDocument", "IDKitMRZReading", "IDKitScan", "IDKitDocumentDetection", "IDKitVIZ", "IDKitTestSupport"],
            path: "Benchmarks/IDKitBenchmarks"
        ),
        .executableTarget(
            name: "IDKitFuzz",
            dependencies: ["IDKitMRZ", "IDKitAAMVA", "IDKitImage", "IDKitBarcode", "IDKitChip", "IDKitDocument", "IDKitMRZReading", "IDKitScan"],
            path: "Fuzz/IDKitFuzz"
        ),
        // Builds Tests/IDKitCABITests/c/abi_test.c against idkit.h and the built libIDKitC.so, and runs it.
        .testTarget(
            name: "IDKitCABITests",
            dependencies: ["IDKitTestSupport"],
            exclude: ["c"]
        ),
        .testTarget(
            name: "IDKitVIZTests",
            dependencies: ["IDKitVIZ", "IDKitImage"]
        ),
        .testTarget(
            name: "IDKitSchemasTests",
            dependencies: ["IDKitSchemas", "IDKitCore"]
        ),
        .testTarget(
            name: "IDKitCoreTests",
            dependencies: ["IDKitCore"]
        ),
        .testTarget(
            name: "IDKitMRZTests",
            dependencies: ["IDKitMRZ"]
        ),
        .testTarget(
            name: "IDKitAAMVATests",
            dependencies: ["IDKitAAMVA"]
        ),
        .testTarget(
            name: "IDKitImageTests",
            dependencies: ["IDKitImage"]
        ),
        .testTarget(
            name: "IDKitBarcodeTests",
            dependencies: ["IDKitBarcode", "IDKitImage", "IDKitAAMVA"]
        ),
        .testTarget(
            name: "IDKitChipTests",
            dependencies: ["IDKitChip", "IDKitMRZ", "IDKitTestSupport"]
        ),
        .testTarget(
            name: "IDKitDocumentTests",
            dependencies: ["IDKitDocument", "IDKitChip", "IDKitMRZ", "IDKitAAMVA", "IDKitTestSupport"]
        ),
        .testTarget(
            name: "IDKitMRZReadingTests",
            dependencies: ["IDKitMRZReading", "IDKitImage", "IDKitMRZ"]
        ),
        .testTarget(
            name: "IDKitDocumentDetectionTests",
            dependencies: ["IDKitDocumentDetection", "IDKitMRZReading", "IDKitImage", "IDKitMRZ"]
        ),
        .testTarget(
            name: "IDKitScanTests",
            dependencies: ["IDKitScan", "IDKitMRZReading", "IDKitImage", "IDKitMRZ", "IDKitAAMVA", "IDKitDocument", "IDKitBarcode",
                           "IDKitDocumentDetection", "IDKitTestSupport"]
        ),
        .testTarget(
            name: "IDKitCLITests",
            dependencies: ["IDKitCLI", "IDKitMRZ", "IDKitTestSupport"]
        ),
        // What several test targets share: IDKit's test PKI, made once per test process.
        .target(name: "IDKitTestSupport", path: "Tests/IDKitTestSupport"),
        .testTarget(
            name: "IDKitServiceTests",
            dependencies: ["IDKitService", "IDKitCore", "IDKitMRZ", "IDKitAAMVA", "IDKitImage", "IDKitChip", "IDKitDocument", "IDKitTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
