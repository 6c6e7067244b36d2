/// Planar 32-bit float samples, allocated once: the unit every node of the engine's graph renders
/// into and the player node plays from (SPEC EN9: nothing is allocated on the render thread, so
/// every block is made on the control side and only written there).
package final class SampleBlock: @unchecked Sendable {
    package let channels: Int
    /// Frames each channel holds.
    package let capacity: Int
    /// Frames that hold samples (≤ capacity).
    package var frames: Int
    private let storage: UnsafeMutablePointer<Float>
    /// One pointer per channel, into `storage` (what `floatChannelData` hands out).
    package let channelPointers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>

    package init(channels: Int, capacity: Int) {
        precondition(channels > 0 && capacity >= 0)
        self.channels = channels
        self.capacity = capacity
        frames = 0
        storage = .allocate(capacity: max(1, channels * capacity))
        storage.initialize(repeating: 0, count: max(1, channels * capacity))
        channelPointers = .allocate(capacity: channels)
        for channel in 0..<channels { (channelPointers + channel).initialize(to: storage + channel * capacity) }
    }

    deinit {
        storage.deallocate()
        channelPointers.deallocate()
    }

    /// A channel's samples.
    @inline(__always)
    package func channel(_ index: Int) -> UnsafeMutablePointer<Float> { channelPointers[index] }

    /// Silence in the first `count` frames of every channel.
    package func clear(_ count: Int) {
        for channel in 0..<channels { channelPointers[channel].update(repeating: 0, count: min(count, capacity)) }
    }
}
