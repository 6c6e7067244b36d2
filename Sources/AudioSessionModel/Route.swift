/// The ports a session's audio uses: inputs and outputs in route order (SPEC §9).
public struct Route: Hashable, Sendable, CustomStringConvertible {
    public var inputs: [Port]
    public var outputs: [Port]

    public init(inputs: [Port] = [], outputs: [Port] = []) {
        self.inputs = inputs
        self.outputs = outputs
    }

    /// The empty route (audioProcessing, RT1).
    public static let none = Route()

    /// The scenario form `INPUTS>OUTPUTS`: port types joined by `+`, `-` for none.
    public var description: String {
        Self.list(inputs) + ">" + Self.list(outputs)
    }

    /// Port types joined by `+`, `-` for none (the scenario form of `inputs` and `outputs`).
    public static func list(_ ports: [Port]) -> String {
        ports.isEmpty ? "-" : ports.map(\.type.rawValue).joined(separator: "+")
    }
}
