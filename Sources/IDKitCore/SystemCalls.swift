#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The libc calls IDKit makes on files and descriptors, each wrapped once (as swift-system's
/// `Syscalls.swift` does): `EINTR` retried here, every failure a typed ``SystemCallError``.
public enum SystemCalls {
    /// `open(path, O_RDONLY)`.
    public static func openForReading(_ path: String) throws(SystemCallError) -> Int32 {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw SystemCallError(call: "open", code: errno) }
        return fd
    }

    /// The file at `path` created or emptied, and `bytes` written to it (mode 0644).
    public static func writeFile(_ path: String, _ bytes: [UInt8]) throws(SystemCallError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SystemCallError(call: "open", code: errno) }
        defer { close(fd) }
        let failure: SystemCallError? = bytes.withUnsafeBytes { buffer in
            do throws(SystemCallError) { try writeAll(fd, buffer) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    public static func close(_ fd: Int32) {
        _ = closeDescriptor(fd)
    }

    /// One `read(2)` into `buffer`, retried on `EINTR`: the byte count, 0 at end of input.
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
        while true {
            let n = readDescriptor(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno != EINTR { throw SystemCallError(call: "read", code: errno) }
        }
    }

    /// `write(2)` until every byte is written, retried on `EINTR`; a write that makes no progress
    /// stops with `EIO`.
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let n = writeDescriptor(fd, base + offset, bytes.count - offset)
            if n > 0 { offset += n; continue }
            if n < 0, errno == EINTR { continue }
            throw SystemCallError(call: "write", code: n < 0 ? errno : EIO)
        }
    }
}

// libc's names, out of the way of the static functions above that share them.
private func closeDescriptor(_ fd: Int32) -> Int32 { close(fd) }
private func readDescriptor(_ fd: Int32, _ p: UnsafeMutableRawPointer?, _ n: Int) -> Int { read(fd, p, n) }
private func writeDescriptor(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int { write(fd, p, n) }
