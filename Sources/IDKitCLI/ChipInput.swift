import IDKitCLICore
import Foundation
import IDKitChip

/// The chip files and trust anchors that `idkit chip verify` and `idkit merge` read: files and
/// folders of EF files (told apart by their first tag), and CSCAs from a folder or a master list,
/// with CRLs.
enum ChipInput {
    /// A chip file is at most this big (EF.DG2 with a large JPEG 2000, EF.DG3 with fingerprints).
    static let fileLimit = 4 << 20

    struct Failure: Error {
        var message: String
        var status: IDKitCommand.ExitStatus
    }

    /// Every file of `paths`, folders expanded to their `.bin` and `EF…` files. A file named on
    /// the command line must be an LDS file; a folder's other files are passed over, and so is
    /// EF.ChipSecurity (signed SecurityInfos like EF.CardSecurity's, which its first tag cannot
    /// tell apart; it is read only after terminal authentication) and EF.DIR (application
    /// templates, tag 61 like EF.DG1's).
    static func files(_ paths: [String]) throws(Failure) -> ChipFiles {
        var files = ChipFiles()
        for path in paths {
            var isFolder: ObjCBool = false
            let inFolder = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
            let members = inFolder
                ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
                    .filter { ($0.lowercased().hasSuffix(".bin") || $0.hasPrefix("EF")) && !["ChipSecurity", "EF_DIR", "EF.DIR"].contains(where: $0.contains) }
                    .map { (path as NSString).appendingPathComponent($0) }
                : [path]
            for file in members {
                let bytes: [UInt8]
                switch InputFiles.read(file, limit: fileLimit) {
                case .success(let b): bytes = b
                case .failure(.tooLarge(let limit)): throw Failure(message: "\(file): more than \(limit) bytes, larger than any chip file", status: .unreadableInput)
                case .failure(.unreadable(let why)): throw Failure(message: "\(file): cannot read: \(why)", status: .unreadableInput)
                }
                if inFolder, !ChipFiles.isChipFile(bytes) { continue }
                do { try files.add(bytes, name: file) } catch {
                    throw Failure(message: error.message, status: error.kind == .duplicateFile ? .usage : .invalid)
                }
            }
        }
        return files
    }

    /// The CSCAs of `--csca` or `--masterlist`, with the CRLs of `--crl`; `nil` when neither is given.
    static func store(csca: String?, masterList: String?, crl: String?) throws(Failure) -> CSCAStore? {
        var store: CSCAStore?
        do {
            if let csca { store = try CSCAStore(contentsOf: csca) }
            if let list = masterList {
                switch InputFiles.read(list, limit: 64 << 20) {
                case .success(let b): store = try CSCAStore(masterList: b, name: "master list \(list)")
                case .failure(.tooLarge(let limit)): throw Failure(message: "\(list): more than \(limit) bytes", status: .unreadableInput)
                case .failure(.unreadable(let why)): throw Failure(message: "\(list): cannot read: \(why)", status: .unreadableInput)
                }
            }
            if let crl { store = try store?.adding(crlsAt: crl) }
        } catch let error as Failure {
            throw error
        } catch let error as ChipError {
            throw Failure(message: error.message, status: .unreadableInput)
        } catch let error as LDSError {
            throw Failure(message: error.description, status: .invalid)
        } catch {
            throw Failure(message: "\(error)", status: .invalid)
        }
        return store
    }
}
