import AudioSessionSound
import Foundation

/// An engine's graph as the control side keeps it (SPEC EN3): the attached nodes, the connections
/// with their formats, the taps. Always used under the engine's lock. `compile` makes the render
/// plan the render thread takes.
struct EngineGraph {
    struct Connection {
        let source: AVAudioNode
        let sourceBus: AVAudioNodeBus
        let destination: AVAudioNode
        let destinationBus: AVAudioNodeBus
        let format: AVAudioFormat
    }

    struct Tap {
        let recorder: TapRecorder
        let format: AVAudioFormat
        let block: AVAudioNodeTapBlock
    }

    var nodes: [ObjectIdentifier: AVAudioNode] = [:]
    var connections: [Connection] = []
    var taps: [TapKey: Tap] = [:]
    /// The route's formats (EN5): what the output and input nodes are.
    var hardwareOutput: AVAudioFormat
    var hardwareInput: AVAudioFormat?
    var outputNode: AVAudioOutputNode?
    var inputNode: AVAudioInputNode?

    struct TapKey: Hashable {
        let node: ObjectIdentifier
        let bus: AVAudioNodeBus
    }

    /// Frames a block holds: a second at the output's rate at least (a cycle, a converter's pull).
    var capacity: Int { max(4_096, Int(hardwareOutput.sampleRate)) }

    func isAttached(_ node: AVAudioNode) -> Bool { nodes[ObjectIdentifier(node)] != nil }

    func connection(into node: AVAudioNode, bus: AVAudioNodeBus) -> Connection? {
        connections.first { $0.destination === node && $0.destinationBus == bus }
    }

    func connection(from node: AVAudioNode, bus: AVAudioNodeBus) -> Connection? {
        connections.first { $0.source === node && $0.sourceBus == bus }
    }

    /// What leaves a node's bus: its connection's format, else what the node is by itself. The
    /// input node's is always the hardware's (it does not convert, EN3): after a configuration
    /// change it says the new format, which the app connects with again (EN7).
    func outputFormat(of node: AVAudioNode, bus: AVAudioNodeBus) -> AVAudioFormat {
        if node is AVAudioInputNode { return naturalFormat(of: node) }
        if let connection = connection(from: node, bus: bus) { return connection.format }
        return naturalFormat(of: node)
    }

    /// What comes into a node's bus: its connection's format, else what it would take.
    func inputFormat(of node: AVAudioNode, bus: AVAudioNodeBus) -> AVAudioFormat {
        if let connection = connection(into: node, bus: bus) { return connection.format }
        if node is AVAudioOutputNode { return hardwareOutput }
        return node is AVAudioMixerNode ? processingFormat(of: node) : node.defaultFormat
    }

    /// The format a node renders in: the output node the route's; a node with an output
    /// connection that connection's; else its own.
    func processingFormat(of node: AVAudioNode) -> AVAudioFormat {
        if node is AVAudioOutputNode { return hardwareOutput }
        if node is AVAudioSinkNode { return inputFormat(of: node, bus: 0) }
        return outputFormat(of: node, bus: 0)
    }

    func naturalFormat(of node: AVAudioNode) -> AVAudioFormat {
        switch node {
        case is AVAudioOutputNode: hardwareOutput
        case is AVAudioInputNode: hardwareInput ?? Self.noFormat
        default: node.defaultFormat
        }
    }

    /// EN5: the input node's format where there is no input (0 Hz, 0 channels, as iOS reports it).
    static let noFormat = AVAudioFormat(noInput: ())

    func nextFreeInputBus(of node: AVAudioNode) -> AVAudioNodeBus {
        var bus = 0
        while connection(into: node, bus: bus) != nil { bus += 1 }
        return bus
    }

    /// Whether `from` reaches `to` along connections (a new connection `to → from` would close a cycle).
    func reaches(_ from: AVAudioNode, _ to: AVAudioNode) -> Bool {
        var seen: Set<ObjectIdentifier> = []
        var pending = [from]
        while let node = pending.popLast() {
            if node === to { return true }
            guard seen.insert(ObjectIdentifier(node)).inserted else { continue }
            pending += connections.filter { $0.source === node }.map(\.destination)
        }
        return false
    }

    /// Why a connection cannot be made, or nil (EN3: the nodes named).
    func problem(
        connecting source: AVAudioNode, _ sourceBus: Int, to destination: AVAudioNode, _ destinationBus: Int,
        format: AVAudioFormat
    )
        -> String?
    {
        for node in [source, destination] where !isAttached(node) {
            return node.engine == nil
                ? "\(node.nodeName) is not attached to this engine (attach it first)"
                : "\(node.nodeName) is attached to another engine"
        }
        if source === destination || reaches(destination, source) {
            return "connecting \(source.nodeName) to \(destination.nodeName) would make a cycle"
        }
        if sourceBus < 0 || sourceBus >= source.numberOfOutputs {
            return "\(source.nodeName) has no output bus \(sourceBus)"
        }
        if destinationBus < 0 || destinationBus >= destination.numberOfInputs {
            return "\(destination.nodeName) has no input bus \(destinationBus)"
        }
        if format.sampleRate == 0 { return "\(source.nodeName) has no format: the session's category or route has no input" }
        if source is AVAudioInputNode, let hardware = hardwareInput, format.sampleRate != hardware.sampleRate {
            return "the input node gives \(hardware) (it does not convert), not \(format)"
        }
        return nil
    }

    /// The render plan for the graph as it is: the output node's chain, pulled from the output,
    /// and beside it what does not reach the output but must render (a tapped node of the input's
    /// chain, a sink node). One step per node, whichever chain reaches it first.
    func compile(capacity: Int) throws(MediaError) -> RenderPlan {
        var steps: [ObjectIdentifier: RenderStep] = [:]
        var root: RenderStep?
        if let outputNode, connection(into: outputNode, bus: 0) != nil {
            root = try step(for: outputNode, capacity: capacity, &steps)
        }
        var sideRoots: [RenderStep] = []
        let reachesOutput = Set(steps.keys)
        let tapped = Set(taps.keys.map(\.node))
        for node in nodes.values where !reachesOutput.contains(ObjectIdentifier(node)) {
            let sink = node is AVAudioSinkNode && connection(into: node, bus: 0) != nil
            guard sink || tapped.contains(ObjectIdentifier(node)) else { continue }
            guard !(node is AVAudioInputNode) || hardwareInput != nil else { continue }
            let side = try step(for: node, capacity: capacity, &steps)
            side.consumers += 1
            sideRoots.append(side)
        }
        return RenderPlan(root: root, sideRoots: sideRoots, kernels: nodes.values.map(\.kernel))
    }

    private func step(
        for node: AVAudioNode, capacity: Int, _ steps: inout [ObjectIdentifier: RenderStep]
    ) throws(MediaError)
        -> RenderStep
    {
        if let made = steps[ObjectIdentifier(node)] { return made }
        let format = processingFormat(of: node)
        var links: [RenderLink] = []
        for connection in connections.filter({ $0.destination === node }).sorted(by: { $0.destinationBus < $1.destinationBus }) {
            let source = try step(for: connection.source, capacity: capacity, &steps)
            let mixing = (connection.source as? AVAudioMixingNode)?.mixing ?? MixingParameters()
            links.append(
                try RenderLink(
                    source: source, bus: connection.destinationBus, toRate: format.sampleRate, mixing: mixing, capacity: capacity)
            )
        }
        let made = try RenderStep(
            name: node.nodeName, kernel: node.kernel, channels: max(1, Int(format.channelCount)),
            sampleRate: format.sampleRate > 0 ? format.sampleRate : 48_000, capacity: capacity, inputs: links,
            tap: taps[TapKey(node: ObjectIdentifier(node), bus: 0)]?.recorder)
        steps[ObjectIdentifier(node)] = made
        return made
    }
}
