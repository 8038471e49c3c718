import IDKitCore
import Testing

/// The schema builder: what `null` adds, where a named schema goes, and the text of a file.
struct JSONSchemaTests {
    @Test func orNullWidensTheTypeAndTheEnum() {
        var definitions: [String: JSONValue] = [:]
        let schema = JSONSchema.string(oneOf: ["valid", "invalid"]).orNull
        #expect(schema.resolved(refPrefix: "#/$defs/", definitions: &definitions)
                == ["type": ["string", "null"], "enum": ["valid", "invalid", nil]])
    }

    @Test func aNamedSchemaIsWrittenOnceAndReferenced() {
        let point = JSONSchema.object(["x": .integer, "y": .integer]).named("Point")
        let document = JSONSchema.object(["from": point, "to": point.orNull], optional: ["to"])
            .document(title: "Line", description: "two points")
        #expect(document["$defs"]?["Point"]?["required"] == ["x", "y"])
        #expect(document["properties"]?["from"] == ["$ref": "#/$defs/Point"])
        #expect(document["properties"]?["to"] == ["anyOf": [["$ref": "#/$defs/Point"], ["type": "null"]]])
        #expect(document["required"] == ["from"])
        #expect(document["additionalProperties"] == false)
        #expect(document["$schema"] == "https://json-schema.org/draft/2020-12/schema")
    }

    @Test func textIsSortedAndSmallObjectsStayOnOneLine() {
        let value: JSONValue = ["b": ["type": ["string", "null"]], "a": 1, "c": [["k": "v\n"]]]
        #expect(value.prettyText() == """
            {
              "a": 1,
              "b": {"type": ["string", "null"]},
              "c": [
                {"k": "v\\n"}
              ]
            }

            """)
        #expect(value.compactText() == #"{"a":1,"b":{"type":["string","null"]},"c":[{"k":"v\n"}]}"#)
    }
}
