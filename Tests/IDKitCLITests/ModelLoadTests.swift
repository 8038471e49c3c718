import Foundation
import Testing
import IDKitTestSupport

/// A recognizer model that cannot be loaded is an error with its reason, never a silent fallback to
/// the OCR-B templates: `idkit scan` exits 70, the service says so at start, `/readyz` and
/// `POST /v1/scan` answer 503 `modelUnavailable`, and what reads no image goes on working.
/// `IDKIT_MRZ_MODEL` names the model file to load instead of the compiled-in one.
@Suite struct ModelLoadTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let image = root.appendingPathComponent("TestVectors/images/clean-00-td3.jpg").path
    static let line1 = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<"
    static let line2 = "L898902C36UTO7408122F1204159ZE184226B<<<<<10"

    /// A file that is no ONNX model.
    static let notAModel: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("idkit-not-a-model-\(getpid()).onnx").path
        FileManager.default.createFile(atPath: path, contents: Data("not an ONNX model\n".utf8))
        return path
    }()

    @Test func scanRefusesWithTheReason() throws {
        let broken = try IDKitBinary.run(["scan", "--json", Self.image], environment: ["IDKIT_MRZ_MODEL": Self.notAModel])
        #expect(broken.status == 70)
        #expect(broken.stdout.isEmpty)
        #expect(broken.stderr.contains("idkit scan: the MRZ recognizer cannot be loaded: OpenCV cannot read \(Self.notAModel)"))
        let missing = try IDKitBinary.run(["scan", Self.image], environment: ["IDKIT_MRZ_MODEL": "/nonexistent/model.onnx"])
        #expect(missing.status == 70)
        #expect(missing.stderr.contains("IDKIT_MRZ_MODEL names /nonexistent/model.onnx, which cannot be read"))
        let second = try IDKitBinary.run(["scan", Self.image], environment: ["IDKIT_MRZ_MODEL_DEGRADED": Self.notAModel])
        #expect(second.status == 70)
        #expect(second.stderr.contains("the MRZ recognizer's second opinion cannot be loaded"))
    }

    @Test func theCommittedModelFileReadsAsTheCompiledInOne() throws {
        let file = Self.root.appendingPathComponent("Sources/CIDKitData/mrz-glyphs.onnx").path
        let fromFile = try IDKitBinary.run(["scan", "--json", Self.image], environment: ["IDKIT_MRZ_MODEL": file])
        let compiled = try IDKitBinary.run(["scan", "--json", Self.image])
        #expect(fromFile.status == 0)
        #expect(fromFile.stdout.contains(#""status":"ok""#))
        func lines(_ json: String) throws -> [String] {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            return try #require((object["mrz"] as? [String: Any])?["lines"] as? [String])
        }
        #expect(try lines(fromFile.stdout) == lines(compiled.stdout))
    }

    @Test func textCommandsDoNotNeedTheModel() throws {
        let r = try IDKitBinary.run(["validate", Self.line1, Self.line2], environment: ["IDKIT_MRZ_MODEL": Self.notAModel])
        #expect(r.status == 0)
    }

    @Test func theServiceSaysItIsNotReady() throws {
        let server = try RunningServer(environment: ["IDKIT_MRZ_MODEL": Self.notAModel])
        let ready = try server.call("GET", "/readyz")
        #expect(ready.status == 503)
        #expect(ready.text.contains(#""status":"modelUnavailable""#))
        #expect(ready.text.contains("the MRZ recognizer cannot be loaded"))
        let scan = try server.call("POST", "/v1/scan", body: try Data(contentsOf: URL(fileURLWithPath: Self.image)),
                                   headers: ["Content-Type": "image/jpeg"])
        #expect(scan.status == 503)
        #expect(scan.text.contains(#""kind":"modelUnavailable""#))
        let mrz = try server.call("POST", "/v1/mrz", body: Data((Self.line1 + "\n" + Self.line2 + "\n").utf8),
                                  headers: ["Content-Type": "text/plain"])
        #expect(mrz.status == 200)
        let (status, log) = server.terminate()
        #expect(status == 0)
        #expect(log.contains("idkit serve: the MRZ recognizer cannot be loaded"))
    }
}
