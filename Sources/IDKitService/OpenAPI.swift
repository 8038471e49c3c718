import Foundation
import IDKitAAMVA
import IDKitChip
import IDKitCore
import IDKitDocument
import IDKitMRZ
import IDKitScan

/// `GET /openapi.json`: the service described in OpenAPI 3.1 — every route, its request bodies and
/// the schemas of its answers. The routes and request bodies are written here; the answers'
/// schemas are the contracts' own (``JSONSchema``), the ones docs/schemas holds, so that the
/// document cannot describe another JSON than the service writes. `ServiceTests` keeps its routes
/// and methods equal to ``Service/routes``; `make check-api` (Schemathesis) sends requests made
/// from it and checks every answer against it.
enum OpenAPI {
    static let document: String = build().prettyText()

    /// The answers' schemas, each under its name in `components/schemas` with the schemas it uses.
    static let answers: [JSONSchema] = [
        MRZRecordValidator.recordSchema, AAMVAReport.jsonSchema, BarcodeReport.imageSchema, DocumentScan.jsonSchema,
        DocumentResult.jsonSchema, BACReport.jsonSchema, Problem.jsonSchema,
    ]

    /// The routes (text below) with the answers' schemas added to its components.
    static func build() -> JSONValue {
        guard case .object(var root)? = try? JSONDecoder().decode(JSONValue.self, from: Data(routes.utf8)),
              case .object(var components)? = root["components"], case .object(var schemas)? = components["schemas"] else {
            preconditionFailure("OpenAPI.routes is not the JSON object it should be")
        }
        var definitions: [String: JSONValue] = [:]
        _ = JSONSchema.anyOf(answers).resolved(refPrefix: "#/components/schemas/", definitions: &definitions)
        for (name, schema) in definitions {
            precondition(schemas[name] == nil, "two schemas named \(name) in the OpenAPI document")
            schemas[name] = schema
        }
        components["schemas"] = .object(schemas)
        root["components"] = .object(components)
        return .object(root)
    }

    static let routes = #"""
    {
      "openapi": "3.1.0",
      "info": {
        "title": "IDKit",
        "version": "\#(IDKitVersion.string)",
        "description": "Machine-readable data of identity documents: ICAO 9303 MRZs, AAMVA barcodes, document photos. Every answer is the JSON of the matching idkit subcommand; errors are RFC 9457 problem details."
      },
      "servers": [{"url": "http://127.0.0.1:8080"}],
      "security": [{"bearer": []}, {}],
      "paths": {
        "/v1/mrz": {
          "post": {
            "summary": "Validate MRZs (idkit validate --json)",
            "parameters": [
              {"name": "correct", "in": "query", "schema": {"$ref": "#/components/schemas/Flag"}},
              {"name": "strict", "in": "query", "schema": {"$ref": "#/components/schemas/Flag"}},
              {"name": "acceptDeviations", "in": "query", "schema": {"$ref": "#/components/schemas/Flag"}},
              {"name": "referenceDate", "in": "query", "schema": {"type": "string", "format": "date"}}
            ],
            "requestBody": {
              "required": true,
              "content": {
                "text/plain": {"schema": {"type": "string"}},
                "application/x-ndjson": {"schema": {"type": "string"}},
                "application/json": {"schema": {"$ref": "#/components/schemas/MRZRequest"}}
              }
            },
            "responses": {
              "200": {
                "description": "One validate --json line per record: NDJSON for text and NDJSON bodies, one object for a JSON body.",
                "content": {
                  "application/x-ndjson": {"schema": {"type": "string"}},
                  "application/json": {"schema": {"$ref": "#/components/schemas/MRZRecord"}}
                }
              },
              "400": {"$ref": "#/components/responses/Problem"},
              "401": {"$ref": "#/components/responses/Problem"},
              "413": {"$ref": "#/components/responses/Problem"},
              "415": {"$ref": "#/components/responses/Problem"},
              "503": {"$ref": "#/components/responses/Problem"}
            }
          }
        },
        "/v1/aamva": {
          "post": {
            "summary": "Parse an AAMVA DL/ID payload (idkit aamva --json)",
            "requestBody": {
              "required": true,
              "content": {
                "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
                "application/json": {"schema": {"type": "object", "required": ["payload"], "properties": {"payload": {"type": "string", "contentEncoding": "base64"}}}}
              }
            },
            "responses": {
              "200": {"description": "The payload parsed.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/AAMVAReport"}}}},
              "400": {"$ref": "#/components/responses/Problem"},
              "401": {"$ref": "#/components/responses/Problem"},
              "413": {"$ref": "#/components/responses/Problem"},
              "415": {"$ref": "#/components/responses/Problem"},
              "503": {"$ref": "#/components/responses/Problem"}
            }
          }
        },
        "/v1/barcode": {
          "post": {
            "summary": "Decode the barcodes of an image (idkit barcode --json)",
            "parameters": [{"name": "pdf417", "in": "query", "schema": {"$ref": "#/components/schemas/Flag"}}],
            "requestBody": {"required": true, "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}, "image/*": {"schema": {"type": "string", "format": "binary"}}}},
            "responses": {
              "200": {"description": "The barcodes found (possibly none).", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/BarcodeImage"}}}},
              "400": {"$ref": "#/components/responses/Problem"},
              "401": {"$ref": "#/components/responses/Problem"},
              "413": {"$ref": "#/components/responses/Problem"},
              "415": {"$ref": "#/components/responses/Problem"},
              "503": {"$ref": "#/components/responses/Problem"}
            }
          }
        },
        "/v1/scan": {
          "post": {
            "summary": "Find documents in a photo, read their MRZ and barcodes (idkit scan --json)",
            "parameters": [
              {"name": "barcodes", "in": "query", "schema": {"$ref": "#/components/schemas/Flag"}},
              {"name": "redact", "in": "query", "schema": {"type": "string"}, "description": "field names, comma-separated"},
              {"name": "redactMode", "in": "query", "schema": {"type": "string", "enum": ["none", "resultFieldsOnly", "imageOnly", "fullResult"]}},
              {"name": "documentNumberVisible", "in": "query", "schema": {"type": "string", "pattern": "^[0-9]+,[0-9]+$"}},
              {"name": "redactMRZ", "in": "query", "schema": {"$ref": "#/components/schemas/Flag"}},
              {"name": "redactBarcode", "in": "query", "schema": {"$ref": "#/components/schemas/Flag"}},
              {"name": "crops", "in": "query", "schema": {"$ref": "#/components/schemas/Flag"}, "description": "crops.document/face/signature as base64 PNG"},
              {"name": "viz", "in": "query", "schema": {"$ref": "#/components/schemas/Flag"}, "description": "read each document's visual zone too (Tesseract): the viz member"},
              {"name": "referenceDate", "in": "query", "schema": {"type": "string", "format": "date"}}
            ],
            "requestBody": {"required": true, "content": {
              "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
              "image/*": {"schema": {"type": "string", "format": "binary"}},
              "multipart/form-data": {"schema": {"type": "object", "description": "Frames of one document, one image per part, fused as idkit scan --fuse (up to 16); or two parts named front and back, both sides of one card as idkit scan --sides reads them.", "additionalProperties": {"type": "string", "format": "binary"}}}}},
            "responses": {
              "200": {"description": "The scan.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Scan"}}}},
              "400": {"$ref": "#/components/responses/Problem"},
              "401": {"$ref": "#/components/responses/Problem"},
              "413": {"$ref": "#/components/responses/Problem"},
              "415": {"$ref": "#/components/responses/Problem"},
              "422": {"$ref": "#/components/responses/Problem"},
              "503": {"$ref": "#/components/responses/Problem"}
            }
          }
        },
        "/v1/merge": {
          "post": {
            "summary": "One document result from MRZ, barcode, VIZ and chip readings (idkit merge --json)",
            "parameters": [
              {"name": "redact", "in": "query", "schema": {"type": "string"}, "description": "field names, comma-separated"},
              {"name": "redactMode", "in": "query", "schema": {"type": "string", "enum": ["none", "resultFieldsOnly", "imageOnly", "fullResult"]}},
              {"name": "documentNumberVisible", "in": "query", "schema": {"type": "string", "pattern": "^[0-9]+,[0-9]+$"}},
              {"name": "redactMRZ", "in": "query", "schema": {"$ref": "#/components/schemas/Flag"}},
              {"name": "redactBarcode", "in": "query", "schema": {"$ref": "#/components/schemas/Flag"}},
              {"name": "redactFace", "in": "query", "schema": {"$ref": "#/components/schemas/Flag"}},
              {"name": "referenceDate", "in": "query", "schema": {"type": "string", "format": "date"}}
            ],
            "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/MergeInput"}}}},
            "responses": {
              "200": {"description": "The merged document.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DocumentResult"}}}},
              "400": {"$ref": "#/components/responses/Problem"},
              "401": {"$ref": "#/components/responses/Problem"},
              "413": {"$ref": "#/components/responses/Problem"},
              "415": {"$ref": "#/components/responses/Problem"},
              "503": {"$ref": "#/components/responses/Problem"}
            }
          }
        },
        "/v1/bac": {
          "post": {
            "summary": "Chip access keys: BAC, PACE K_pi, a BAC challenge and the card's answer (idkit bac --json)",
            "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/BACRequest"}}}},
            "responses": {
              "200": {"description": "The keys.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/BACReport"}}}},
              "400": {"$ref": "#/components/responses/Problem"},
              "401": {"$ref": "#/components/responses/Problem"},
              "413": {"$ref": "#/components/responses/Problem"},
              "415": {"$ref": "#/components/responses/Problem"},
              "503": {"$ref": "#/components/responses/Problem"}
            }
          }
        },
        "/healthz": {"get": {"summary": "Liveness", "security": [], "responses": {"200": {"description": "Alive.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Status"}}}}}}},
        "/readyz": {"get": {"summary": "Readiness (503 while shutting down)", "security": [], "responses": {
          "200": {"description": "Ready.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Status"}}}},
          "503": {"description": "Draining.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Status"}}}}}}},
        "/version": {"get": {"summary": "Version", "responses": {
          "200": {"description": "The version.", "content": {"application/json": {"schema": {"type": "object", "required": ["idkit"], "properties": {"idkit": {"type": "string"}}}}}},
          "401": {"$ref": "#/components/responses/Problem"}}}},
        "/metrics": {"get": {"summary": "Prometheus metrics", "responses": {
          "200": {"description": "Text exposition format 0.0.4.", "content": {"text/plain": {"schema": {"type": "string"}}}},
          "401": {"$ref": "#/components/responses/Problem"}}}},
        "/openapi.json": {"get": {"summary": "This document", "security": [], "responses": {"200": {"description": "OpenAPI 3.1.", "content": {"application/json": {"schema": {"type": "object"}}}}}}}
      },
      "components": {
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        "responses": {
          "Problem": {"description": "RFC 9457 problem details.", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}
        },
        "schemas": {
          "Flag": {"type": "string", "enum": ["", "true", "false", "1", "0"]},
          "Status": {"type": "object", "required": ["status"], "properties": {"status": {"type": "string"}}},
          "MRZRequest": {
            "type": "object",
            "properties": {
              "mrz": {"type": "string"}, "lines": {"type": "array", "items": {"type": "string"}}, "id": {"type": ["string", "number"]},
              "correct": {"type": "boolean"}, "strict": {"type": "boolean"}, "acceptDeviations": {"type": "boolean"},
              "referenceDate": {"type": "string", "format": "date"}
            }
          },
          "BACRequest": {
            "type": "object",
            "properties": {
              "lines": {"type": "array", "items": {"type": "string"}}, "mrz": {"type": "string"},
              "documentNumber": {"type": "string"}, "dateOfBirth": {"type": "string"}, "dateOfExpiry": {"type": "string"},
              "can": {"type": "string"}, "rndIC": {"type": "string"}, "rndIFD": {"type": "string"}, "kIFD": {"type": "string"},
              "cardResponse": {"type": "string"}
            }
          },
          "MergeInput": {
            "type": "object",
            "properties": {
              "mrz": {"type": ["array", "null"], "items": {"type": "string"}}, "barcode": {"type": ["string", "null"], "contentEncoding": "base64"},
              "viz": {"type": ["object", "null"]}, "referenceDate": {"type": ["string", "null"], "format": "date"},
              "chip": {"type": ["array", "null"], "items": {"type": "string", "contentEncoding": "base64"}, "description": "files read from the chip (EF.SOD and data groups), any order"}
            }
          }
        }
      }
    }
    """#
}
