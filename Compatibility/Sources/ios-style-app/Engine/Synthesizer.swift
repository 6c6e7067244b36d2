import AVFoundation

/// A synthesizer as iOS apps write it: an AVAudioSourceNode rendering a sine into the main mixer.
final class Synthesizer {
    let engine = AVAudioEngine()
    private var phase: Double = 0
    var frequency: Double = 440
    var amplitude: Float = 0.25
    private(set) var renderedFrames = 0

    func start() throws {
        try AVAudioSession.sharedInstance().setCategory(.playback)
        let output = engine.outputNode
        let format = output.inputFormat(forBus: 0)
        let sampleRate = format.sampleRate
        let mono = AVAudioFormat(standardFormatWithSampleRate: sampleRate, channels: 1)!
        let source = AVAudioSourceNode(format: mono) { [unowned self] _, _, frameCount, audioBufferList in
            let buffers = UnsafeMutableAudioBufferListPointer(audioBufferList)
            let step = 2 * Double.pi * self.frequency / sampleRate
            for frame in 0..<Int(frameCount) {
                let value = self.amplitude * Float(sin(self.phase))
                self.phase += step
                for buffer in buffers {
                    buffer.mData!.assumingMemoryBound(to: Float.self)[frame] = value
                }
            }
            self.renderedFrames += Int(frameCount)
            return noErr
        }
        engine.attach(source)
        engine.connect(source, to: engine.mainMixerNode, format: mono)
        try engine.start()
    }

    func stop() { engine.stop() }
}
