#if canImport(Glibc)
import Glibc
#endif

/// Whole-file reads for commands that take one payload or image per file, with a size limit so
/// that a huge or endless input (a device, a pipe) cannot take unbounded memory.
enum InputFiles {
    enum Failure: Error {
        case unreadable(String)
        case tooLarge(limit: Int)
    }

    /// Reads `path` (or standard input for `-`) up to `limit` bytes; more is an error.
    static func read(_ path: String, limit: Int) -> Result<[UInt8], Failure> {
        let fd: Int32 = path == "-" ? 0 : open(path, O_RDONLY)
        guard fd >= 0 else { return .failure(.unreadable(String(cString: strerror(errno)))) }
        defer { if fd != 0 { close(fd) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable(String(cString: strerror(errno))))
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > limit { return .failure(.tooLarge(limit: limit)) }
        }
        return .success(bytes)
    }
}
