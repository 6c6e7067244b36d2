import FoundationEssentials

/// A JSON document as `status --json` prints it: nulls where a value is absent (so a reader sees
/// every key), encoded by FoundationEssentials' JSONEncoder, pretty and with sorted keys.
/// (Foundation's JSONSerialization would bring ICU into the command: issue 31.)
enum JSONValue: Encodable, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(stringLiteral value: String) { self = .string(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(_ value: String?) { self = value.map(JSONValue.string) ?? .null }
    init(_ value: Int?) { self = value.map(JSONValue.int) ?? .null }
    init(_ value: Double) { self = .double(value) }
    init(_ value: Bool) { self = .bool(value) }
    init(_ values: [String]) { self = .array(values.map(JSONValue.string)) }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let values): try container.encode(values)
        case .object(let members): try container.encode(members)
        }
    }

    /// The document, two-space indented, keys sorted.
    var pretty: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
