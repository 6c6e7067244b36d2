import AudioSessionSound
import Dispatch

/// SO2's cost on a sound server: the player is fed as the server asks, as paplay is. The server
/// keeps 2 s queued and asks once half a second of it is free (its request wakes the player's
/// thread: `ServerRequests`); the sink runs as far ahead as it likes, so it wakes the client
/// library's thread about once a second (made to run 0.1 s ahead, it did every 95 ms: 2× paplay's
/// CPU in `pulse-bench --player`). A change rewrites what is written past the frame heard — up
/// to the sink's latency and the 2 s queued (a few ms of decoding): a fade is best asked of
/// `setVolume(_:fadeDuration:)` at once, not as a volume set from a timer. What it wrote is kept
/// as marks (`WriteAhead`), so that its own volume, fade, pan, rate, loops and position are still
/// heard at once: what is buffered and not heard yet is written again over the old, from the
/// frame being heard (the server rewinds its sink for it). A pause or the daemon's duck was never
/// delayed by the buffer (the stream is corked or set on the server).
extension AudioPlayer {
    /// How often the player looks at its stream when the server asks nothing (the end of the
    /// sound, a stream that stands), and how far ahead of what is heard it writes at least.
    static let serverTick = DispatchTimeInterval.seconds(1)
    static let serverAhead = 3.0
    /// What the server keeps queued for the stream (it asks for more once `serverRequest` of it
    /// is free): paplay's 2 s. The sink's latency is left to the sink (paplay's too), so it
    /// wakes the client library's thread about once a second; asked to adjust it (half the
    /// buffer) at 0.2 s, it did every 95 ms, and the player cost 2× paplay's CPU.
    static let serverBuffer = 2.0
    static let serverRequest = 0.5
    /// Frames decoded and written at a time: one block of the client library's shared memory
    /// (64 KiB of stereo floats), and below malloc's threshold for mapping fresh pages.
    static let writePiece = 8_192

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

    /// `isMetering` set: on a server's stream, what is buffered is decoded again to be metered
    /// as it is heard (turned on while playing, the meters read the sound at once, not seconds later).
    func meter(_ on: Bool) {
        guard on != metering else { return }
        metering = on
        guard case (var ahead, _)? = heardAhead() else {
            source.metering = on
            return
        }
        ahead.metering = on
        if on { ahead.meterBuffered(&source) }
        self.ahead = ahead
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

    /// A tick on a server's stream (the server asked, or a second passed): the stream topped up
    /// to what the server asks and 3 s past what is heard; at the end of the
    /// sound, finished when its last frame is heard (a tick is set for then).
    func tickAhead() {
        guard case (var ahead, let output)? = heardAhead(asking: false) else { return }
        // What the server asks for (its buffer topped up), and at least `serverAhead` past
        // what is heard; a request's worth at a time, not a few frames each time.
        let due = max(ahead.heard + aheadFrames - ahead.written, output.writableFrames)
        if ahead.written == 0, ahead.end == nil {
            // The first buffer in one write (decoding 2 s takes ~2 ms): the sink, running far
            // ahead, takes what it is given at once, and a stream that ran dry after a first
            // short piece had the server rewind and render it again and again.
            output.write(ahead.append(due, from: &source), replacingLast: 0)
        } else if ahead.end == nil, due >= Int(Self.serverRequest * Double(sampleRate)) / 2 {
            var left = due
            while left > 0, ahead.end == nil {
                let piece = min(left, Self.writePiece)
                output.write(ahead.append(piece, from: &source), replacingLast: 0, askingTime: left == piece)
                left -= piece
            }
        } else {
            output.askTime()  // asked with the write otherwise
        }
        guard let end = ahead.end else {
            self.ahead = ahead
            return
        }
        if !ahead.endTriggered {
            ahead.endTriggered = true
            output.trigger()  // a sound shorter than the server's buffer starts; a longer one plays on
        }
        self.ahead = ahead
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
