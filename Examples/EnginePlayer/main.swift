// engine-player [FILE]: Apple's "play a file through a player node" sample, unchanged iOS code:
// the file read into a buffer, scheduled on an AVAudioPlayerNode through the main mixer, played
// through the app's session; a call stops the engine, and it starts again after (SPEC EN6).
// Without FILE it plays a two-second 440 Hz tone. AUDIOSESSION_RENDER_DIR renders to files.
import AVFoundation

let session = AVAudioSession.sharedInstance()
let engine = AVAudioEngine()
let player = AVAudioPlayerNode()
let done = DispatchSemaphore(value: 0)

func toneBuffer() -> AVAudioPCMBuffer {
    let format = AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1)!
    let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 96_000)!
    buffer.frameLength = 96_000
    for frame in 0..<96_000 { buffer.floatChannelData![0][frame] = 0.5 * sin(2 * .pi * 440 * Float(frame) / 48_000) }
    return buffer
}

do {
    try session.setCategory(.playback)
    let buffer: AVAudioPCMBuffer
    if let path = CommandLine.arguments.dropFirst().first {
        let file = try AVAudioFile(forReading: URL(fileURLWithPath: path))
        buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AVAudioFrameCount(file.length))!
        try file.read(into: buffer)
    } else {
        buffer = toneBuffer()
    }
    engine.attach(player)
    engine.connect(player, to: engine.mainMixerNode, format: buffer.format)
    player.scheduleBuffer(buffer) { done.signal() }
    _ = NotificationCenter.default.addObserver(forName: AVAudioSession.interruptionNotification, object: session, queue: nil) {
        note in
        let type = note.userInfo?[AVAudioSessionInterruptionTypeKey] as? UInt
        if type == AVAudioSession.InterruptionType.ended.rawValue {
            try? engine.start()  // the engine does not start again by itself
            print("engine-player: interruption ended, started again: \(engine.isRunning)")
        } else {
            print("engine-player: interrupted, running: \(engine.isRunning)")
        }
    }
    try engine.start()
    player.play()
    print("engine-player: playing \(buffer.frameLength) frames of \(buffer.format)")
    done.wait()
    Thread.sleep(forTimeInterval: 0.2)
    engine.stop()
    print("engine-player: done")
} catch {
    print("engine-player: \(error.localizedDescription)")
    exit(1)
}
