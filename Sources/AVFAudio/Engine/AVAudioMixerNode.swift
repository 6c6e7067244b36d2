import AudioSessionSound
import Foundation

/// Apple's `AVAudioMixerNode` (SPEC EN3): any number of inputs, each of any rate and channel count,
/// converted to its output format where it enters (the one converter), times the source's volume,
/// panned, added; times `outputVolume`.
open class AVAudioMixerNode: AVAudioMixingNode, @unchecked Sendable {
    private let mixer: MixerKernel

    public init() {
        let mixer = MixerKernel()
        self.mixer = mixer
        super.init(kernel: mixer)
    }

    override open var numberOfInputs: Int { Int.max }

    /// 0…1, applied to the mix.
    open var outputVolume: Float {
        get { mixer.outputVolume }
        set { mixer.outputVolume = max(0, min(1, newValue)) }
    }

    /// The lowest input bus with nothing connected.
    open var nextAvailableInputBus: AVAudioNodeBus { engine?.withGraph { $0.nextFreeInputBus(of: self) } ?? 0 }
}

/// Apple's `AVAudioIONode`: the engine's output or input.
open class AVAudioIONode: AVAudioMixingNode, @unchecked Sendable {
    /// Seconds between a sample's render and its being heard (output) or recorded and rendered (input).
    open var presentationLatency: TimeInterval { engine?.outputPresentationLatency ?? 0 }
    /// The route's format as the session says it now (while the engine is stopped: a running
    /// engine keeps the formats it started with until a configuration change, EN7).
    override open func outputFormat(forBus bus: AVAudioNodeBus) -> AVAudioFormat {
        engine?.refreshHardwareFormatsWhileStopped()
        return super.outputFormat(forBus: bus)
    }

    override open func inputFormat(forBus bus: AVAudioNodeBus) -> AVAudioFormat {
        engine?.refreshHardwareFormatsWhileStopped()
        return super.inputFormat(forBus: bus)
    }

    /// EN8: whether voice processing (echo cancellation) is on for this node.
    open var isVoiceProcessingEnabled: Bool { engine?.voiceProcessing ?? false }

    /// EN8: on the input node, turns voice processing on or off for both I/O nodes; only while the
    /// engine is stopped. - Throws: an NSError (-10_851, kAudioUnitErr_InvalidPropertyValue) while running.
    open func setVoiceProcessingEnabled(_ enabled: Bool) throws {
        guard let engine else {
            throw AVAudioEngine.error(-10_867, "setVoiceProcessingEnabled: \(nodeName) is not part of an engine")
        }
        try engine.setVoiceProcessing(enabled)
    }
}

/// Apple's `AVAudioOutputNode` (SPEC EN3, EN5): the device's output, in the route's format (the
/// session's sample rate and output channels); what comes into it is converted to that.
open class AVAudioOutputNode: AVAudioIONode, @unchecked Sendable {
    init() { super.init(kernel: PassThroughKernel()) }
    override open var numberOfOutputs: Int { 0 }
}

/// Apple's `AVAudioInputNode` (SPEC EN3, EN5): the device's input, in the route's input format; 0 Hz
/// and 0 channels where the category or route has none.
open class AVAudioInputNode: AVAudioIONode, @unchecked Sendable {
    let input: InputKernel

    init() {
        let input = InputKernel()
        self.input = input
        super.init(kernel: input)
    }
    override open var numberOfInputs: Int { 0 }

    /// EN8: voice processing's switches, kept and reported.
    open var isVoiceProcessingBypassed = false
    open var isVoiceProcessingAGCEnabled = true
    open var isVoiceProcessingInputMuted = false
}
