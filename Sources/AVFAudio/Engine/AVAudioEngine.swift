import AudioSession
import AudioSessionSound
import Foundation

/// Posted when the route's sample rate or channel count changed under a running engine, which has
/// stopped (SPEC EN7); its object is the engine. Posted off the main queue, as on iOS.
public let AVAudioEngineConfigurationChangeNotification = Notification.Name("AVAudioEngineConfigurationChangeNotification")

extension NSNotification.Name {
    public static let AVAudioEngineConfigurationChange = AVAudioEngineConfigurationChangeNotification
}

/// Apple's `AVAudioEngine` (SPEC §20): a graph of nodes between the device's input and output,
/// played through the app's session — on the sound server (its own stream, the daemon applying the
/// session's route and gain) or on the simulated device's files (`AUDIOSESSION_RENDER_DIR`).
///
/// The control side (this class: attach, connect, schedule, volumes, taps) keeps the graph under
/// a lock; `start()` and every later edit compile it into a plan the render thread takes with one
/// atomic swap (EN9). `start()` starts the session's output (IO1) and throws what `setActive(true)`
/// would then (EN5); an interruption stops the engine, pausing its player nodes, and it does not
/// start again by itself (EN6).
open class AVAudioEngine: NSObject, @unchecked Sendable {
    let avSession: AVAudioSession
    var session: AudioSession { avSession.session }
    let endpoint: AudioEndpoint
    let lock = NSRecursiveLock()
    var graph: EngineGraph
    var mixer: AVAudioMixerNode?
    var loop: RenderLoop?
    /// The simulated device's output, kept across stops (its files are appended to).
    var simulatedOutput: (output: SampleOutput, format: (channels: Int, rate: Int))?
    let context = RenderContext()
    var running = false
    /// What the running engine started of the session: its output, its input.
    var runningIO = (output: false, input: false)
    var voiceProcessing = false
    /// Player nodes an interruption paused (EN6): `start()` plays them on.
    var pausedByInterruption: [AVAudioPlayerNode] = []
    var completions: [Int: Completion] = [:]
    var nextToken = 0
    var pendingGraphError: String?
    var messenger: (any DispatchSourceTimer)?
    let messengerQueue = DispatchQueue(label: "audiosession.engine.messenger", qos: .userInitiated)
    var notificationToken: NotificationHandlerToken?
    var lastTargetRead: UInt64 = 0

    /// An engine of the app's shared session.
    override public convenience init() { self.init(session: .sharedInstance()) }

    /// Ours: an engine of a given session (several apps in one process, tests), on an endpoint
    /// (the simulated device when `AUDIOSESSION_RENDER_DIR` is set, else the sound server).
    public init(session: AVAudioSession, endpoint: AudioEndpoint = .automatic) {
        avSession = session
        self.endpoint = endpoint
        graph = EngineGraph(hardwareOutput: AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 2)!)
        super.init()
        messengerQueue.setSpecific(key: Self.messengerKey, value: true)
        refreshHardwareFormats()
        // Before the app's observers: they hear of an interruption with the engine already stopped (EN6).
        notificationToken = session.session.addSoundObjectHandler { [weak self] notification in
            guard let self else { return }
            switch notification {
            case .interruptionBegan: self.interrupted()
            case .routeChange: self.routeChanged()
            default: break
            }
        }
    }

    deinit {
        if let notificationToken { session.removeNotificationHandler(notificationToken) }
        stopRendering()
        simulatedOutput?.output.close()
    }

    /// Runs `body` under the engine's lock without the graph (so it may be called from inside
    /// `withGraph`, which holds the graph for its whole body).
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Runs `body` on the graph under the engine's lock.
    func withGraph<T>(_ body: (inout EngineGraph) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&graph)
    }

    // MARK: Nodes

    /// Attaches a node (a node attached elsewhere is refused, and the reason printed).
    open func attach(_ node: AVAudioNode) {
        withGraph { graph in
            if let other = node.engine, other !== self {
                return AVAudioNode.report("attach: \(node.nodeName) is attached to another engine; detach it there first")
            }
            graph.nodes[ObjectIdentifier(node)] = node
            node.engine = self
        }
    }

    /// Detaches a node, disconnecting it and removing its taps.
    open func detach(_ node: AVAudioNode) {
        withGraph { graph in
            guard graph.isAttached(node) else { return }
            graph.connections.removeAll { $0.source === node || $0.destination === node }
            graph.taps = graph.taps.filter { $0.key.node != ObjectIdentifier(node) }
            graph.nodes.removeValue(forKey: ObjectIdentifier(node))
            if node === mixer { mixer = nil }
            node.engine = nil
        }
        recompile()
    }

    open var attachedNodes: Set<AVAudioNode> { withGraph { Set($0.nodes.values) } }

    /// The device's output (made on first access).
    open var outputNode: AVAudioOutputNode { ioNode(\.outputNode, AVAudioOutputNode.init) }

    /// The device's input (made on first access): the route's input format, or 0 Hz and 0
    /// channels where the category or route has none.
    open var inputNode: AVAudioInputNode { ioNode(\.inputNode, AVAudioInputNode.init) }

    /// An I/O node of the graph, made and attached on first access.
    private func ioNode<Node: AVAudioNode>(_ place: WritableKeyPath<EngineGraph, Node?>, _ make: () -> Node) -> Node {
        withGraph { graph in
            if let node = graph[keyPath: place] { return node }
            let node = make()
            graph[keyPath: place] = node
            graph.nodes[ObjectIdentifier(node)] = node
            node.engine = self
            return node
        }
    }

    /// The main mixer, made on first access and connected to the output node in its format.
    open var mainMixerNode: AVAudioMixerNode {
        let output = outputNode
        return withGraph { graph in
            if let mixer { return mixer }
            let made = AVAudioMixerNode()
            mixer = made
            graph.nodes[ObjectIdentifier(made)] = made
            made.engine = self
            graph.connections.append(
                .init(source: made, sourceBus: 0, destination: output, destinationBus: 0, format: graph.hardwareOutput))
            return made
        }
    }

    // MARK: Connections

    open func connect(_ node1: AVAudioNode, to node2: AVAudioNode, format: AVAudioFormat?) {
        let bus = node2 is AVAudioMixerNode ? (node2 as! AVAudioMixerNode).nextAvailableInputBus : 0
        connect(node1, to: node2, fromBus: 0, toBus: bus, format: format)
    }

    /// Connects a node's output bus to another's input bus, in `format` (nil: the source's
    /// output format). What the bus had before is replaced. A bad connection — a node not
    /// attached or of another engine, a cycle, a bus the node does not have, an input format the
    /// input node cannot give — is not made: the reason, naming the nodes, is printed and
    /// `start()` throws it (EN3; iOS raises an exception an app cannot catch).
    open func connect(
        _ node1: AVAudioNode, to node2: AVAudioNode, fromBus bus1: AVAudioNodeBus, toBus bus2: AVAudioNodeBus,
        format: AVAudioFormat?
    ) {
        let problem = withGraph { graph -> String? in
            let format = format ?? graph.outputFormat(of: node1, bus: bus1)
            if let problem = graph.problem(connecting: node1, bus1, to: node2, bus2, format: format) { return problem }
            graph.connections.removeAll {
                ($0.destination === node2 && $0.destinationBus == bus2) || ($0.source === node1 && $0.sourceBus == bus1)
            }
            graph.connections.append(
                .init(source: node1, sourceBus: bus1, destination: node2, destinationBus: bus2, format: format))
            return nil
        }
        if let problem {
            AVAudioNode.report("connect: \(problem)")
            locked { pendingGraphError = problem }
            return
        }
        recompile()
    }

    open func disconnectNodeInput(_ node: AVAudioNode) {
        withGraph { $0.connections.removeAll { $0.destination === node } }
        recompile()
    }

    open func disconnectNodeInput(_ node: AVAudioNode, bus: AVAudioNodeBus) {
        withGraph { $0.connections.removeAll { $0.destination === node && $0.destinationBus == bus } }
        recompile()
    }

    open func disconnectNodeOutput(_ node: AVAudioNode) {
        withGraph { $0.connections.removeAll { $0.source === node } }
        recompile()
    }

    open func disconnectNodeOutput(_ node: AVAudioNode, bus: AVAudioNodeBus) {
        withGraph { $0.connections.removeAll { $0.source === node && $0.sourceBus == bus } }
        recompile()
    }

    // MARK: Running

    open var isRunning: Bool { locked { running } }

    /// Makes what `start()` needs ahead of time (here: checks the graph compiles).
    open func prepare() { _ = try? withGraph { graph in try graph.compile(capacity: graph.capacity) } }

    /// Stops the engine and lets go of its stream; player nodes keep what they have scheduled.
    open func pause() { stop() }

    /// Stops the engine (EN5: nothing stays on the sound server); the session's output stops.
    open func stop() {
        stopRendering()
        deliverEvents()
    }

    /// Stops and drops what every node holds (player schedules).
    open func reset() {
        stop()
        for node in withGraph({ Array($0.nodes.values) }) { node.reset() }
        deliverEvents()
    }

    /// The output's time at the last render cycle, while running.
    var lastRenderTime: AVAudioTime? {
        withGraph { graph in
            guard running, let loop else { return nil }
            return AVAudioTime(hostTime: AVAudioTime.now, sampleTime: loop.sampleTime, atRate: graph.hardwareOutput.sampleRate)
        }
    }

    /// Seconds written to the output and not heard yet.
    var outputPresentationLatency: TimeInterval { locked { loop?.bufferedSeconds ?? 0 } }

    /// An NSError in `NSOSStatusErrorDomain` with a code and what and why.
    static func error(_ code: Int, _ description: String) -> NSError {
        NSError(domain: NSOSStatusErrorDomain, code: code, userInfo: [NSLocalizedDescriptionKey: "AVAudioEngine: \(description)"])
    }
}
