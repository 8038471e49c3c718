import IDKitMRZReading

extension DocumentScanner {
    /// Why the MRZ recognizer's models cannot be loaded (``MRZScanner/loadModels()``), or `nil`
    /// when they load. Loaded once per process, on first use. Every front end asks before its first
    /// scan and answers with this reason instead of scanning: `idkit scan` exits 70, the service's
    /// `/readyz` and scan route answer 503 (`modelUnavailable`), `idkit_scan` fails with that kind.
    public static var modelError: String? { loadFailure }

    private static let loadFailure: String? = {
        do throws(MRZModelError) {
            try MRZScanner.loadModels()
            return nil
        } catch {
            return error.description
        }
    }()
}
