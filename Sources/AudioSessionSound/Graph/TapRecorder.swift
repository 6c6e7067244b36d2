import Synchronization

/// A tap on a node's output (`installTap(onBus:bufferSize:format:block:)`, SPEC EN4): the render
/// thread copies what the node rendered into a ring of its own; another thread takes it out in
/// buffers of `bufferSize` frames and calls the app's block there, never on the render thread.
/// Frames that find the ring full (an app's block slower than real time for over a second) are
/// dropped and counted, and the next buffer's time says where it really starts.
package final class TapRecorder: @unchecked Sendable {
    package let channels: Int
    package let bufferSize: Int
    private let ring: UnsafeMutablePointer<Float>
    private let capacity: Int  // frames
    private let written = Atomic<Int>(0)  // frames, the render thread's
    private let read = Atomic<Int>(0)  // frames, the reader's
    private let droppedFrames = Atomic<Int>(0)
    private var delivered: Int64 = 0  // the reader's: the node's frames before the next buffer

    /// - Parameters:
    ///   - seconds: how much the ring holds at `sampleRate`.
    package init(channels: Int, sampleRate: Double, bufferSize: Int, seconds: Double = 2) {
        self.channels = channels
        self.bufferSize = max(1, bufferSize)
        capacity = max(self.bufferSize * 2, Int(sampleRate * seconds))
        ring = .allocate(capacity: capacity * channels)
        ring.initialize(repeating: 0, count: capacity * channels)
    }

    deinit { ring.deallocate() }

    /// Frames dropped because the reader fell behind.
    package var dropped: Int { droppedFrames.load(ordering: .relaxed) }

    /// On the render thread: the node's `frames` frames.
    package func record(_ block: SampleBlock, frames: Int) {
        let start = written.load(ordering: .relaxed)
        guard start + frames - read.load(ordering: .acquiring) <= capacity else {
            droppedFrames.add(frames, ordering: .relaxed)
            return
        }
        for channel in 0..<channels {
            let source = block.channel(min(channel, block.channels - 1))
            for frame in 0..<frames { ring[((start + frame) % capacity) * channels + channel] = source[frame] }
        }
        written.store(start + frames, ordering: .releasing)
    }

    /// On the reader's thread: the next whole buffer (planar, `bufferSize` frames) and the node's
    /// sample time of its first frame, or nil while fewer frames wait.
    package func next() -> (samples: [[Float]], sampleTime: Int64)? {
        let from = read.load(ordering: .relaxed)
        guard written.load(ordering: .acquiring) - from >= bufferSize else { return nil }
        var samples = [[Float]](repeating: [Float](repeating: 0, count: bufferSize), count: channels)
        for channel in 0..<channels {
            for frame in 0..<bufferSize { samples[channel][frame] = ring[((from + frame) % capacity) * channels + channel] }
        }
        read.store(from + bufferSize, ordering: .releasing)
        let time = delivered + Int64(droppedFrames.load(ordering: .relaxed))
        delivered += Int64(bufferSize)
        return (samples, time)
    }
}
