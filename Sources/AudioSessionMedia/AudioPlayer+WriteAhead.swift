import AudioSessionSound
import Dispatch

/// SO2's cost on a sound server: the player writes 1.5 s ahead and is woken twice a
/// second, as paplay is (each wake-up — its thread's, the client library's — cost more than its
/// samples did when it wrote 40 ms at a time; at 250 ms and 1 s ahead, `pulse-bench` measured
/// 3.4–3.7 ms of CPU per second of audio, at 500 ms and 1.5 s 2.7–2.9). A change rewrites up to
/// 1.5 s (a few ms of decoding): a fade is best asked of `setVolume(_:fadeDuration:)` at once,
/// not as a volume set from a timer. What it wrote is kept as marks (`WriteAhead`), so
/// that its own volume, fade, pan, rate, loops and position are still heard at once: what is
/// buffered and not heard yet is written again over the old, from the frame being heard. A pause
/// or the daemon's duck was never delayed by the buffer (the stream is corked or set on the server).
extension AudioPlayer {
    /// How often the player tops its stream up, and how far ahead of what is heard it writes.
    static let serverTick = DispatchTimeInterval.milliseconds(500)
    static let serverAhead = 1.5
    /// What the server is asked to keep for the stream's latency (it plays what is written past
    /// it). Its sink runs about half of it ahead when the player is alone on it, and wakes the
    /// client library's thread that often (every 95 ms). At 1 s, `pulse-bench --player` measured
    /// 0.3–0.45 ms of CPU per second less, but on PulseAudio the server's clock then read ahead of
    /// the sound (`currentTime` 1.34 s 1.2 s after play()) and `.finished` came before the end:
    /// not taken.
    static let serverBuffer = 0.2

    /// Frames written ahead of what is heard: the stream topped up to this.
    var aheadFrames: Int { Int(Self.serverAhead * Double(sampleRate)) }

    /// On a server's stream: what was written, told the frame heard now, and the stream. The
    /// server's clock is asked for again (read the next time), unless the caller asks with its
    /// write (the tick: one wake-up of libpulse's thread for both).
    private func heardAhead(asking: Bool = true) -> (WriteAhead, SampleOutput)? {
        guard var ahead, let output else { return nil }
        ahead.hear(upTo: (asking ? output.heardFrames : output.heardFramesAsReported) ?? 0)
        return (ahead, output)
    }

    /// A server's stream was opened: its frames are counted from now.
    func writeAhead() {
        ahead = WriteAhead(channels: channels, sampleRate: sampleRate)
        ahead?.metering = metering
        source.metering = false
    }

    /// `isMetering` set: on a server's stream, what is buffered is written again to be metered
    /// as it is heard (turned on while playing, the meters read the sound at once, not 1.5 s later).
    func meter(_ on: Bool) {
        guard on != metering else { return }
        metering = on
        guard ahead != nil else {
            source.metering = on
            return
        }
        ahead?.metering = on
        if on { change { _ in } }
    }

    /// The frame of the file being heard (on a server's stream; otherwise the next one written).
    var heardPosition: Double {
        guard let (ahead, _) = heardAhead() else { return source.position }
        self.ahead = ahead
        return ahead.position(fileFrames: frames)
    }

    /// What was heard since the last call, per channel.
    func levels() -> [(average: Double, peak: Double)] {
        guard case (var ahead, _)? = heardAhead() else { return source.takeLevels() }
        defer { self.ahead = ahead }
        return ahead.takeLevels()
    }

    /// A change to what plays (volume, pan, rate, loops, position): on a server's stream made from
    /// the frame being heard, and what is buffered after it written again.
    func change(_ change: (inout PlaybackSource) -> Void) {
        guard case (var ahead, let output)? = heardAhead() else { return change(&source) }
        let (samples, replacing) = ahead.rewrite(from: ahead.heard, ahead: aheadFrames, &source, change: change)
        self.ahead = ahead
        if !samples.isEmpty { output.write(samples, replacingLast: replacing) }
        if playing, ahead.end != nil { ticker.nudge(after: untilEnd(ahead)) }
    }

    /// Before the stream closes (stop, media services lost, the end): the source goes back to the
    /// frame heard, so that playing on starts there, not a second later.
    func settle() {
        guard case (var ahead, _)? = heardAhead() else { return }
        _ = ahead.rewind(to: ahead.heard, &source)
        self.ahead = nil
        source.metering = metering
    }

    /// A tick on a server's stream: the stream topped up to 1.5 s ahead; at the end of the
    /// sound, finished when its last frame is heard (a tick is set for then).
    func tickAhead() {
        guard case (var ahead, let output)? = heardAhead(asking: false) else { return }
        let due = ahead.heard + aheadFrames - ahead.written
        // play() → first sample: 100 ms first, the rest 20 ms later (decoding 1.5 s took ~3 ms).
        if ahead.written == 0, ahead.end == nil {
            output.write(ahead.append(sampleRate / 10, from: &source), replacingLast: 0)
            self.ahead = ahead
            return ticker.nudge(after: .milliseconds(20))
        }
        // A third of it at a time (a tick's worth), not a few frames each time.
        if ahead.end == nil, due >= aheadFrames / 3 {
            output.write(ahead.append(due, from: &source), replacingLast: 0)
        } else {
            output.askTime()  // asked with the write otherwise
        }
        self.ahead = ahead
        guard let end = ahead.end else { return }
        if let due = finishDue(end: end, heard: ahead.heard, sinkHolds: output.sinkLatencyFrames) {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < due else {
                lastHeard = nil
                return finish()
            }
            ticker.nudge(after: .nanoseconds(Int(due - now)))
        } else {
            ticker.nudge(after: untilEnd(ahead))
        }
    }

    /// When `.finished` is due (monotonic nanoseconds), once it can be known: when the server's
    /// clock is within 5 ms of the last frame, now. The clock may also stand short of it: once it
    /// has stood 60 ms, the sound ends what it still lacked after its last move if the sink holds
    /// that much — else now (on PipeWire, after corks, it stood short by more than the sink held,
    /// and `.finished` never came). (Finished as soon as the server had taken the last frame, the
    /// stream was closed with what the sink held still to play: the end of the sound cut.)
    private func finishDue(end: Int, heard: Int, sinkHolds: Int) -> UInt64? {
        let now = DispatchTime.now().uptimeNanoseconds
        if heard != lastHeard?.frames { lastHeard = (heard, now) }
        let left = end - heard
        guard left > sampleRate / 200 else { return now }
        let since = lastHeard?.since ?? now
        guard now - since >= 60_000_000 else { return nil }
        return left <= sampleRate / 200 + sinkHolds ? since + UInt64(left) * 1_000_000_000 / UInt64(sampleRate) : now
    }

    /// Until the last frame written is heard (the next tick then; at most a tick).
    private func untilEnd(_ ahead: WriteAhead) -> DispatchTimeInterval {
        let frames = max(0, (ahead.end ?? ahead.written) - ahead.heard)
        return .microseconds(min(500_000, max(2_000, frames * 1_000_000 / sampleRate)))
    }
}
