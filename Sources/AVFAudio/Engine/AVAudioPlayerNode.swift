import AudioSessionSound
import Foundation

/// When a scheduled buffer's completion handler is called (SPEC EN4).
public enum AVAudioPlayerNodeCompletionCallbackType: Int, Sendable {
    /// Its last frame was taken by the render thread.
    case dataConsumed = 0
    /// Its last frame was rendered (the same moment here).
    case dataRendered = 1
    /// Its last frame was heard: after the output's latency.
    case dataPlayedBack = 2
}

/// `scheduleBuffer`'s options.
public struct AVAudioPlayerNodeBufferOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// Plays the buffer again and again until something interrupts it or the player stops.
    public static let loops = AVAudioPlayerNodeBufferOptions(rawValue: 1)
    /// Drops what was scheduled before, at once.
    public static let interrupts = AVAudioPlayerNodeBufferOptions(rawValue: 2)
    /// Drops what was scheduled before once the current loop ends.
    public static let interruptsAtLoop = AVAudioPlayerNodeBufferOptions(rawValue: 4)
}

public typealias AVAudioNodeCompletionHandler = () -> Void
public typealias AVAudioPlayerNodeCompletionHandler = (AVAudioPlayerNodeCompletionCallbackType) -> Void

/// Apple's `AVAudioPlayerNode` (SPEC EN4): buffers scheduled in order and played while it plays.
/// Each buffer is copied when scheduled (the render thread never reads the app's memory); its
/// completion handler runs on the engine's messenger thread, never the render thread. `stop()`
/// drops what is scheduled and calls its handlers; `pause()` keeps it.
open class AVAudioPlayerNode: AVAudioMixingNode, @unchecked Sendable {
    let player: PlayerKernel
    /// What waits to be sent to the render side (the engine's lock).
    let feed = PlayerFeed()
    private var playing = false  // the engine's lock

    public init() {
        let player = PlayerKernel()
        self.player = player
        super.init(kernel: player)
    }

    override open var numberOfInputs: Int { 0 }

    /// Whether it plays (after `play()`, until `pause()` or `stop()`).
    open var isPlaying: Bool { engine?.locked { playing } ?? false }

    open func scheduleBuffer(_ buffer: AVAudioPCMBuffer, completionHandler: AVAudioNodeCompletionHandler? = nil) {
        schedule(buffer, at: nil, options: [], type: .dataConsumed, Self.ignoringType(completionHandler))
    }

    open func scheduleBuffer(
        _ buffer: AVAudioPCMBuffer, at when: AVAudioTime?, options: AVAudioPlayerNodeBufferOptions = [],
        completionHandler: AVAudioNodeCompletionHandler? = nil
    ) {
        schedule(buffer, at: when, options: options, type: .dataConsumed, Self.ignoringType(completionHandler))
    }

    open func scheduleBuffer(
        _ buffer: AVAudioPCMBuffer, completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType,
        completionHandler: AVAudioPlayerNodeCompletionHandler? = nil
    ) {
        schedule(buffer, at: nil, options: [], type: callbackType, completionHandler)
    }

    open func scheduleBuffer(
        _ buffer: AVAudioPCMBuffer, at when: AVAudioTime?, options: AVAudioPlayerNodeBufferOptions = [],
        completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType,
        completionHandler: AVAudioPlayerNodeCompletionHandler? = nil
    ) {
        schedule(buffer, at: when, options: options, type: callbackType, completionHandler)
    }

    private static func ignoringType(_ handler: AVAudioNodeCompletionHandler?) -> AVAudioPlayerNodeCompletionHandler? {
        guard let handler else { return nil }
        return { _ in handler() }
    }

    /// Copies the buffer's frames into a block of its own and sends it to the render side. Bad
    /// input (a detached node, a buffer of another format than the node's output, an empty buffer)
    /// is said on standard error and the handler called at once, as iOS raises there.
    private func schedule(
        _ buffer: AVAudioPCMBuffer, at when: AVAudioTime?, options: AVAudioPlayerNodeBufferOptions,
        type: AVAudioPlayerNodeCompletionCallbackType, _ handler: AVAudioPlayerNodeCompletionHandler?
    ) {
        guard let engine else {
            Self.report("scheduleBuffer on \(nodeName): the player node is not attached to an engine")
            handler?(type)
            return
        }
        let format = outputFormat(forBus: 0)
        guard buffer.format.sampleRate == format.sampleRate, buffer.format.channelCount == format.channelCount else {
            Self.report("scheduleBuffer on \(nodeName): the buffer's format \(buffer.format) is not the node's \(format)")
            handler?(type)
            return
        }
        guard buffer.frameLength > 0 else {
            Self.report("scheduleBuffer on \(nodeName): the buffer holds no frames (frameLength 0)")
            handler?(type)
            return
        }
        let frames = Int(buffer.frameLength)
        let block = SampleBlock(channels: Int(format.channelCount), capacity: frames)
        for channel in 0..<block.channels {
            let out = block.channel(channel)
            if let floats = buffer.floatChannelData, buffer.stride == 1 {
                out.update(from: floats[channel], count: frames)
            } else {
                for frame in 0..<frames { out[frame] = buffer.sample(channel: channel, frame: frame) }
            }
        }
        block.frames = frames
        let at = when.flatMap { $0.isSampleTimeValid ? $0.sampleTime : nil }
        engine.schedule(
            on: self, block: block, loops: options.contains(.loops), interrupts: options.contains(.interrupts),
            atLoop: options.contains(.interruptsAtLoop), at: at, type: type, handler: handler)
    }

    /// Schedules a whole file, decoded as it plays (a few seconds ahead, never the whole file).
    open func scheduleFile(_ file: AVAudioFile, at when: AVAudioTime?, completionHandler: AVAudioNodeCompletionHandler? = nil) {
        scheduleSegment(
            file, startingFrame: 0, frameCount: AVAudioFrameCount(clamping: file.length), at: when,
            completionHandler: completionHandler)
    }

    open func scheduleFile(
        _ file: AVAudioFile, at when: AVAudioTime?, completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType,
        completionHandler: AVAudioPlayerNodeCompletionHandler? = nil
    ) {
        scheduleSegment(
            file, startingFrame: 0, frameCount: AVAudioFrameCount(clamping: file.length), at: when,
            completionCallbackType: callbackType,
            completionHandler: completionHandler)
    }

    /// Schedules `frameCount` frames of a file from `startingFrame`, decoded as it plays.
    open func scheduleSegment(
        _ file: AVAudioFile, startingFrame: AVAudioFramePosition, frameCount numberFrames: AVAudioFrameCount,
        at when: AVAudioTime?,
        completionHandler: AVAudioNodeCompletionHandler? = nil
    ) {
        scheduleSegment(
            file, startingFrame: startingFrame, frameCount: numberFrames, at: when, completionCallbackType: .dataConsumed,
            completionHandler: Self.ignoringType(completionHandler))
    }

    /// The file's own reader (the app's `AVAudioFile` keeps its position); a file in another rate
    /// or channel count than the node's output, or a detached node, is said and its handler called.
    open func scheduleSegment(
        _ file: AVAudioFile, startingFrame: AVAudioFramePosition, frameCount numberFrames: AVAudioFrameCount,
        at when: AVAudioTime?,
        completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType,
        completionHandler: AVAudioPlayerNodeCompletionHandler? = nil
    ) {
        guard let engine else {
            Self.report("scheduleFile on \(nodeName): the player node is not attached to an engine")
            completionHandler?(callbackType)
            return
        }
        let format = outputFormat(forBus: 0)
        guard file.processingFormat.sampleRate == format.sampleRate, file.processingFormat.channelCount == format.channelCount
        else {
            Self.report("scheduleFile on \(nodeName): the file is \(file.processingFormat), the node's output \(format)")
            completionHandler?(callbackType)
            return
        }
        let reader: SoundFileReader
        do { reader = try SoundFileReader(path: file.url.path) } catch {
            Self.report("scheduleFile on \(nodeName): \(error.description)")
            completionHandler?(callbackType)
            return
        }
        let start = Int(max(0, min(startingFrame, AVAudioFramePosition(reader.frames))))
        reader.seek(to: start)
        let end = min(reader.frames, start + Int(numberFrames))
        let token = engine.newToken(type: callbackType, handler: completionHandler, player: self, frames: 0)
        let at = when.flatMap { $0.isSampleTimeValid ? $0.sampleTime : nil }
        engine.schedule(on: self, file: PlayerFeed.FileItem(reader: reader, start: start, end: end, at: at, token: token))
    }

    /// Starts playing what is scheduled (and what will be), when the engine runs.
    open func play() { setPlaying(true) }

    /// Plays from `when` (its sample time, in the player's time); nil: at once.
    open func play(at when: AVAudioTime?) { setPlaying(true) }

    /// Stops playing; what is scheduled stays, and the position.
    open func pause() { setPlaying(false) }

    /// Stops playing and drops everything scheduled, calling each completion handler.
    open func stop() {
        guard let engine else { return }
        engine.locked { playing = false }
        engine.send(.stop, to: self)
    }

    override open func reset() { stop() }

    func setPlaying(_ value: Bool) {
        guard let engine else {
            return Self.report("play/pause on \(nodeName): the player node is not attached to an engine")
        }
        engine.locked { playing = value }
        engine.send(value ? .play : .pause, to: self)
    }

    /// EN6: an interruption pauses a playing node; `start()` after it plays it on.
    var isPlayingNow: Bool { playing }

    /// The player's time for a time of its node (the engine's output): frames it has played since
    /// it was last stopped, at its output rate; nil while it does not play.
    open func playerTime(forNodeTime nodeTime: AVAudioTime) -> AVAudioTime? {
        guard isPlaying else { return nil }
        return AVAudioTime(
            hostTime: nodeTime.isHostTimeValid ? nodeTime.hostTime : AVAudioTime.now, sampleTime: player.playerSampleTime,
            atRate: outputFormat(forBus: 0).sampleRate)
    }

    /// The node time (the engine's output) at a player time; nil while it does not play.
    open func nodeTime(forPlayerTime playerTime: AVAudioTime) -> AVAudioTime? {
        guard isPlaying, let now = lastRenderTime, playerTime.isSampleTimeValid else { return nil }
        let offset = Double(playerTime.sampleTime - player.playerSampleTime) / outputFormat(forBus: 0).sampleRate
        return AVAudioTime(
            hostTime: now.hostTime &+ AVAudioTime.hostTime(forSeconds: max(0, offset)),
            sampleTime: now.sampleTime + Int64((offset * now.sampleRate).rounded()), atRate: now.sampleRate)
    }
}
