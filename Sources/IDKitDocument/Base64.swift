import Foundation

/// Base64 through Foundation, for the raw barcode bytes in JSON.
enum Base64 {
    static func encode(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }
    static func decode(_ text: String) -> [UInt8]? { Data(base64Encoded: text).map { Array($0) } }
}
