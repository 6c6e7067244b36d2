import AudioSessionSound
import Foundation

/// The app's render block: set `isSilence` when it wrote nothing; return 0 (noErr).
public typealias AVAudioSourceNodeRenderBlock = (
    _ isSilence: UnsafeMutablePointer<ObjCBool>, _ timestamp: UnsafePointer<AudioTimeStamp>, _ frameCount: AVAudioFrameCount,
    _ outputData: UnsafeMutablePointer<AudioBufferList>
) -> OSStatus

/// Apple's `AVAudioSourceNode` (SPEC EN4): the app's render block, called on the render thread
/// with each cycle's frames to fill, deinterleaved 32-bit float in the node's format (the format
/// given, else its output connection's, else 44.1 kHz stereo). As on iOS, the block must not
/// allocate, lock or wait: it runs in real time.
open class AVAudioSourceNode: AVAudioMixingNode, @unchecked Sendable {
    let format: AVAudioFormat?

    public convenience init(renderBlock block: @escaping AVAudioSourceNodeRenderBlock) {
        self.init(format: nil, renderBlock: block)
    }

    public init(format: AVAudioFormat?, renderBlock block: @escaping AVAudioSourceNodeRenderBlock) {
        self.format = format
        let state = RenderState(block: block)
        super.init(
            kernel: BlockKernel { frames, samples, sampleTime in
                state.render(frames: frames, into: samples, sampleTime: sampleTime)
            })
    }

    override open var numberOfInputs: Int { 0 }
    override var defaultFormat: AVAudioFormat { format ?? super.defaultFormat }

    /// What the render thread uses each cycle, made once: the buffer list pointing at the block's channels.
    private final class RenderState: @unchecked Sendable {
        let block: AVAudioSourceNodeRenderBlock
        var list: UnsafeMutableAudioBufferListPointer?
        var listChannels = 0
        var silence = ObjCBool(false)
        var stamp = AudioTimeStamp()

        init(block: @escaping AVAudioSourceNodeRenderBlock) { self.block = block }

        deinit { if let list { free(list.unsafeMutablePointer) } }

        func render(frames: Int, into samples: SampleBlock, sampleTime: Int64) -> Bool {
            if list == nil || listChannels != samples.channels {
                // Once per format (the first cycle after a connection changed): not per cycle.
                if let list { free(list.unsafeMutablePointer) }
                list = AudioBufferList.allocate(maximumBuffers: samples.channels)
                listChannels = samples.channels
            }
            guard let list else { return false }
            for channel in 0..<samples.channels {
                list[channel] = AudioBuffer(
                    mNumberChannels: 1, mDataByteSize: UInt32(frames * MemoryLayout<Float>.size),
                    mData: UnsafeMutableRawPointer(samples.channel(channel)))
            }
            silence = false
            stamp = AudioTimeStamp(
                mSampleTime: Double(sampleTime), mHostTime: DispatchTime.now().uptimeNanoseconds, mRateScalar: 1,
                mFlags: .sampleHostTimeValid)
            let status = block(&silence, &stamp, AVAudioFrameCount(frames), list.unsafeMutablePointer)
            return status == 0 && !silence.boolValue
        }
    }
}

/// The app's receiver block: the input's frames, as they are recorded.
public typealias AVAudioSinkNodeReceiverBlock = (
    _ timestamp: UnsafePointer<AudioTimeStamp>, _ frameCount: AVAudioFrameCount, _ inputData: UnsafePointer<AudioBufferList>
) -> OSStatus

/// Apple's `AVAudioSinkNode` (SPEC EN4): the app's receiver block, called on the render thread
/// with each cycle's frames of what is connected into it (the input node, as real apps connect
/// it), deinterleaved 32-bit float. As on iOS, the block must not allocate, lock or wait.
open class AVAudioSinkNode: AVAudioNode, @unchecked Sendable {
    public init(receiverBlock block: @escaping AVAudioSinkNodeReceiverBlock) {
        let state = ReceiveState(block: block)
        super.init(
            kernel: SinkKernel { samples, frames, sampleTime in
                state.receive(samples, frames: frames, sampleTime: sampleTime)
            })
    }

    override open var numberOfOutputs: Int { 0 }

    private final class ReceiveState: @unchecked Sendable {
        let block: AVAudioSinkNodeReceiverBlock
        var list: UnsafeMutableAudioBufferListPointer?
        var listChannels = 0
        var stamp = AudioTimeStamp()

        init(block: @escaping AVAudioSinkNodeReceiverBlock) { self.block = block }

        deinit { if let list { free(list.unsafeMutablePointer) } }

        func receive(_ samples: SampleBlock, frames: Int, sampleTime: Int64) {
            if list == nil || listChannels != samples.channels {
                if let list { free(list.unsafeMutablePointer) }  // once per format, not per cycle
                list = AudioBufferList.allocate(maximumBuffers: samples.channels)
                listChannels = samples.channels
            }
            guard let list else { return }
            for channel in 0..<samples.channels {
                list[channel] = AudioBuffer(
                    mNumberChannels: 1, mDataByteSize: UInt32(frames * MemoryLayout<Float>.size),
                    mData: UnsafeMutableRawPointer(samples.channel(channel)))
            }
            stamp = AudioTimeStamp(
                mSampleTime: Double(sampleTime), mHostTime: DispatchTime.now().uptimeNanoseconds, mRateScalar: 1,
                mFlags: .sampleHostTimeValid)
            _ = block(&stamp, AVAudioFrameCount(frames), list.unsafePointer)
        }
    }
}
