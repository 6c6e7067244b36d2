import CYAML

/// A YAML node as the configuration reads it: scalars keep their text and whether they were
/// plain (unquoted); every node keeps its line for error messages.
indirect enum YAMLNode {
    case scalar(String, plain: Bool, line: Int)
    case sequence([YAMLNode], line: Int)
    case mapping([(key: YAMLNode, value: YAMLNode)], line: Int)

    var line: Int {
        switch self {
        case .scalar(_, _, let line), .sequence(_, let line), .mapping(_, let line): line
        }
    }

    /// The text of a scalar.
    var text: String? { if case .scalar(let text, _, _) = self { text } else { nil } }
}

/// Reads a YAML document with libyaml's loader (anchors and aliases resolved by it).
enum YAMLDocument {
    /// The document's root, or `nil` for an empty document.
    /// - Throws: libyaml's problem with its line and column, naming the file.
    static func parse(_ text: String, file: String) throws(ConfigurationError) -> YAMLNode? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) != 0 else { throw ConfigurationError("\(file): cannot start the YAML parser") }
        defer { yaml_parser_delete(&parser) }
        let bytes = Array(text.utf8)
        var document = yaml_document_t()
        let loaded = bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            return yaml_parser_load(&parser, &document)
        }
        guard loaded != 0 else {
            let problem = parser.problem.map { String(cString: $0) } ?? "unreadable"
            let mark = parser.problem_mark
            throw ConfigurationError("\(file): not valid YAML: \(problem) (line \(mark.line + 1), column \(mark.column + 1))")
        }
        defer { yaml_document_delete(&document) }
        guard let root = yaml_document_get_root_node(&document) else { return nil }
        return node(root, in: &document, depth: 0)
    }

    private static func node(
        _ node: UnsafeMutablePointer<yaml_node_t>, in document: inout yaml_document_t, depth: Int
    )
        -> YAMLNode
    {
        let line = Int(node.pointee.start_mark.line) + 1
        guard depth < 64 else { return .scalar("", plain: false, line: line) }  // nesting far beyond any configuration
        switch node.pointee.type {
        case YAML_SEQUENCE_NODE:
            var items: [YAMLNode] = []
            var item = node.pointee.data.sequence.items.start
            while let current = item, current != node.pointee.data.sequence.items.top {
                if let child = yaml_document_get_node(&document, current.pointee) {
                    items.append(self.node(child, in: &document, depth: depth + 1))
                }
                item = current + 1
            }
            return .sequence(items, line: line)
        case YAML_MAPPING_NODE:
            var pairs: [(key: YAMLNode, value: YAMLNode)] = []
            var pair = node.pointee.data.mapping.pairs.start
            while let current = pair, current != node.pointee.data.mapping.pairs.top {
                if let key = yaml_document_get_node(&document, current.pointee.key),
                    let value = yaml_document_get_node(&document, current.pointee.value)
                {
                    pairs.append(
                        (self.node(key, in: &document, depth: depth + 1), self.node(value, in: &document, depth: depth + 1)))
                }
                pair = current + 1
            }
            return .mapping(pairs, line: line)
        default:
            let scalar = node.pointee.data.scalar
            let text =
                scalar.value.map { value in
                    String(decoding: UnsafeBufferPointer(start: value, count: Int(scalar.length)), as: UTF8.self)
                } ?? ""
            return .scalar(text, plain: scalar.style == YAML_PLAIN_SCALAR_STYLE, line: line)
        }
    }
}
