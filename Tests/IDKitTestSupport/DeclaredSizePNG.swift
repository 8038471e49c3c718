/// PNG files that declare a size their data does not hold: the image-limit tests of every front
/// end (the scan, the service's routes, the C ABI) send the same bytes.
public enum DeclaredSizePNG {
    /// A gray PNG of `width` × `height` whose rows all repeat (a few KB however large it claims to be).
    public static func bytes(width: Int, height: Int) -> [UInt8] {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return be32(data.count) + body + be32(Int(crc32(body)))
        }
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        func crc32(_ bytes: [UInt8]) -> UInt32 {
            var c: UInt32 = 0xFFFF_FFFF
            for b in bytes {
                c ^= UInt32(b)
                for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            }
            return ~c
        }
        // One stored (uncompressed) deflate block holding the first row only: the decoder refuses
        // the size before it inflates anything.
        let row = [UInt8](repeating: 0, count: width + 1)
        let n = row.count
        let deflate: [UInt8] = [0x78, 0x01, 0x01, UInt8(n & 255), UInt8(n >> 8), UInt8(~n & 255), UInt8((~n >> 8) & 255)] + row + [0, 0, 0, 0]
        let header = be32(width) + be32(height) + [8, 0, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", deflate) + chunk("IEND", [])
    }
}
