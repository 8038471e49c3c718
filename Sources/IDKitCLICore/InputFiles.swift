internal import IDKitCore

/// Whole-file reads for commands that take one payload or image per file (`-`: standard input),
/// through IDKitCore's size-limited reader.
package enum InputFiles {
    package enum Failure: Error {
        case unreadable(String)
        case tooLarge(limit: Int)
    }

    /// Reads `path` (or standard input for `-`) up to `limit` bytes; more is an error.
    package static func read(_ path: String, limit: Int) -> Result<[UInt8], Failure> {
        do {
            return .success(path == "-" ? try FileInput.readAll(fileDescriptor: 0, limit: limit)
                                        : try FileInput.readAll(path: path, limit: limit))
        } catch {
            switch error {
            case .system(let e): return .failure(.unreadable(e.message))
            case .tooLarge(let limit): return .failure(.tooLarge(limit: limit))
            }
        }
    }
}
