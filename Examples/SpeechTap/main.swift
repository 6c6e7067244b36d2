// speech-tap [SECONDS] [FILE]: the speech recognizers' pattern, unchanged iOS code: a tap on the
// engine's input node in the record category, each buffer's level printed and the buffers written
// to FILE (default speech-tap.caf) with AVAudioFile — the recorders' pattern too.
// AUDIOSESSION_RENDER_DIR records the simulated device's microphone (a 440 Hz tone).
import AVFoundation

let arguments = CommandLine.arguments.dropFirst()
let seconds = Double(arguments.first ?? "") ?? 2
let path = arguments.dropFirst().first ?? "speech-tap.caf"
let session = AVAudioSession.sharedInstance()
let engine = AVAudioEngine()

do {
    try session.setCategory(.record, mode: .measurement)
    try session.setActive(true)
    let input = engine.inputNode
    let format = input.outputFormat(forBus: 0)
    let file = try AVAudioFile(forWriting: URL(fileURLWithPath: path), settings: format.settings)
    var buffers = 0
    input.installTap(onBus: 0, bufferSize: 4_800, format: format) { buffer, time in
        try? file.write(from: buffer)
        let samples = UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength))
        let rms = (samples.reduce(0) { $0 + $1 * $1 } / Float(max(1, samples.count))).squareRoot()
        buffers += 1
        if buffers % 5 == 0 { print("speech-tap: \(time.sampleTime) \(String(format: "%.1f", 20 * log10(max(rms, 1e-8)))) dBFS") }
    }
    try engine.start()
    print("speech-tap: recording \(format) for \(seconds) s into \(path)")
    Thread.sleep(forTimeInterval: seconds)
    input.removeTap(onBus: 0)
    engine.stop()
    try session.setActive(false)
    print("speech-tap: \(file.length) frames written")
} catch {
    print("speech-tap: \(error.localizedDescription)")
    exit(1)
}
