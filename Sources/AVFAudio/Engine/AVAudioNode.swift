import AudioSessionSound
import Foundation

/// The block a tap calls with each buffer and the time of its first frame.
public typealias AVAudioNodeTapBlock = (AVAudioPCMBuffer, AVAudioTime) -> Void

/// Apple's `AVAudioNode` (SPEC EN3): a node of an engine's graph. Its render side is a kernel of
/// AudioSessionSound's graph; everything here is the control side, under its engine's lock.
open class AVAudioNode: NSObject, @unchecked Sendable {
    /// The engine it is attached to (nil while detached).
    public internal(set) weak var engine: AVAudioEngine?
    let kernel: RenderKernel
    /// Its name in errors and logs ("AVAudioPlayerNode 0x…").
    var nodeName: String { "\(type(of: self)) \(String(UInt(bitPattern: ObjectIdentifier(self).hashValue), radix: 16))" }

    init(kernel: RenderKernel) {
        self.kernel = kernel
        super.init()
    }

    open var numberOfInputs: Int { 1 }
    open var numberOfOutputs: Int { 1 }

    /// The format of what comes into `bus` (its connection's), or what it would be.
    open func inputFormat(forBus bus: AVAudioNodeBus) -> AVAudioFormat {
        engine?.withGraph { $0.inputFormat(of: self, bus: bus) } ?? defaultFormat
    }

    /// The format of what leaves `bus` (its connection's), or what it would be.
    open func outputFormat(forBus bus: AVAudioNodeBus) -> AVAudioFormat {
        engine?.withGraph { $0.outputFormat(of: self, bus: bus) } ?? defaultFormat
    }

    /// What a node gives before it is connected: the standard format at 44.1 kHz, stereo (as iOS).
    var defaultFormat: AVAudioFormat { AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 2)! }

    /// The output's time at the last render cycle while its engine runs, else nil.
    open var lastRenderTime: AVAudioTime? { engine?.lastRenderTime }

    /// Ours: the latency and tail as iOS reports them for a node without either.
    open var latency: TimeInterval { 0 }
    open var outputPresentationLatency: TimeInterval { engine?.outputPresentationLatency ?? 0 }

    /// A tap on an output bus (SPEC EN4): `block` is called off the render thread with buffers of
    /// `bufferSize` frames (iOS takes it as a request; here it is kept as given, at least 1, at
    /// most a second of the node's rate) in the bus's format — a `format` other than the bus's
    /// (in rate or channels) is refused and the reason printed, as iOS raises there. One tap per
    /// bus: a second is refused the same way. It starts with the next render cycle.
    open func installTap(
        onBus bus: AVAudioNodeBus, bufferSize: AVAudioFrameCount, format: AVAudioFormat?,
        block tapBlock: @escaping AVAudioNodeTapBlock
    ) {
        guard let engine else {
            return Self.report("installTap on \(nodeName): the node is not attached to an engine")
        }
        if let problem = engine.installTap(on: self, bus: bus, bufferSize: bufferSize, format: format, block: tapBlock) {
            Self.report("installTap(onBus: \(bus)) on \(nodeName): \(problem)")
        }
    }

    /// Removes the tap on `bus`; its block is not called again once this returns.
    open func removeTap(onBus bus: AVAudioNodeBus) { engine?.removeTap(on: self, bus: bus) }

    /// Drops what the node holds (a player's schedule).
    open func reset() {}

    /// What iOS raises an exception for: said on standard error, nothing changed.
    static func report(_ problem: String) {
        FileHandle.standardError.write(Data("AVAudioEngine: \(problem)\n".utf8))
    }
}

/// Apple's `AVAudioMixing`: a source's volume and pan where it enters a mixer.
public protocol AVAudioMixing: AnyObject {
    var volume: Float { get set }
    var pan: Float { get set }
}

/// A node that mixes as a source: its parameters, kept where the render thread reads them.
open class AVAudioMixingNode: AVAudioNode, AVAudioMixing, @unchecked Sendable {
    let mixing = MixingParameters()
    /// 0…1, where it enters a mixer.
    open var volume: Float {
        get { mixing.volume }
        set { mixing.volume = max(0, min(1, newValue)) }
    }
    /// −1 (left) … 1 (right), where it enters a mixer.
    open var pan: Float {
        get { mixing.pan }
        set { mixing.pan = max(-1, min(1, newValue)) }
    }
}
