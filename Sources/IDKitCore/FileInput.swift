#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads with a size limit, so that a huge or endless input (a device, a pipe) cannot
/// take unbounded memory (through ``SystemCalls``).
public enum FileInput {
    /// Reads the file at `path` up to `limit` bytes; more is an error.
    public static func readAll(path: String, limit: Int) throws(FileInputError) -> [UInt8] {
        let fd: Int32
        do { fd = try SystemCalls.openForReading(path) } catch { throw .system(error) }
        defer { SystemCalls.close(fd) }
        return try readAll(fileDescriptor: fd, limit: limit)
    }

    /// Reads an open descriptor (standard input: 0) to its end, up to `limit` bytes.
    public static func readAll(fileDescriptor fd: Int32, limit: Int) throws(FileInputError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let result = chunk.withUnsafeMutableBytes { b in Result { () throws(SystemCallError) in try SystemCalls.read(fd, into: b) } }
            let n: Int
            switch result {
            case .success(let count): n = count
            case .failure(let error): throw .system(error)
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > limit { throw .tooLarge(limit: limit) }
        }
        return bytes
    }
}

/// Why a file could not be read whole.
public enum FileInputError: Error, Sendable, Equatable {
    /// `open` or `read` failed.
    case system(SystemCallError)
    /// The input holds more than `limit` bytes (reading stopped there).
    case tooLarge(limit: Int)
}

/// A libc call that failed, with its `errno`.
public struct SystemCallError: Error, Sendable, Equatable {
    /// `open`, `read`, …
    public var call: String
    public var code: Int32

    public init(call: String, code: Int32) {
        self.call = call
        self.code = code
    }

    /// `strerror`'s text for the code.
    public var message: String { String(cString: strerror(code)) }
}
