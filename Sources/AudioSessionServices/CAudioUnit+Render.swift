import AudioSessionClient
import AudioSessionModel
import AudioSessionSound
import CAudioSessionServices
import Dispatch

#if canImport(Glibc)
import Glibc
#endif

// An I/O unit's tick (SO5): once per IO buffer duration while it runs, on its callback thread —
// the microphone handed to the input callback (AudioUnitRender copies it), the render callback
// asked for the speaker's frames, written through the one playback path.
extension CAudioUnit {
    // MARK: The tick (once per IO buffer duration while running, on the queue)

    func tick() {
        guard running else { return }
        let frames = sliceFrames
        if inputEnabled, let input { pullInput(input, frames: frames) }
        guard running, outputEnabled, let output else { return }
        var gain: Float = 1
        var port: String?
        if output.isSimulated {
            guard let status = try? session.status(), status.isOutputRunning else { return }
            (gain, port) = (Float(status.outputGain), status.currentRoute.outputs.first?.uid)
        }
        // The server: the room in its buffer now; the simulated device: what it played since, added up.
        budget = output.isSimulated ? min(budget + output.writableFrames, 4 * frames) : output.writableFrames
        var samples: [Float] = []
        while running, budget >= frames {
            samples += render(frames)
            budget -= frames
        }
        try? output.write(samples, gain: gain, port: port)
    }

    /// Asks the app's render callback for `frames` frames (silence without one, or on its error).
    func render(_ frames: Int) -> [Float] {
        let bytes = frames * outputFormat.bytesPerFrame
        if renderScratchBytes < bytes {
            free(renderScratch)
            renderScratch = calloc(1, bytes)
            renderScratchBytes = bytes
        }
        defer { outputTime += Double(frames) }
        guard let callback = renderCallback, let procedure = callback.inputProc, let data = renderScratch else {
            return [Float](repeating: 0, count: frames * outputFormat.channels)
        }
        var list = AudioBufferList(
            mNumberBuffers: 1,
            mBuffers: AudioBuffer(mNumberChannels: UInt32(outputFormat.channels), mDataByteSize: UInt32(bytes), mData: data))
        var flags: AudioUnitRenderActionFlags = 0
        var time = Self.timeStamp(outputTime)
        let status = procedure(callback.inputProcRefCon, &flags, &time, 0, UInt32(frames), &list)
        guard status == 0, flags & UInt32(kAudioUnitRenderAction_OutputIsSilence) == 0, let rendered = list.mBuffers.mData else {
            return [Float](repeating: 0, count: frames * outputFormat.channels)
        }
        return outputFormat.decode(rendered, frames: frames, gain: 1)
    }

    /// Reads the microphone; for each slice recorded, the app's input callback is told, and its
    /// AudioUnitRender on bus 1 takes the slice (a slice it does not take is dropped).
    func pullInput(_ input: SampleInput, frames: Int) {
        var gain: Float = 1
        var silent = false
        if input.isSimulated {
            guard let status = try? session.status(), status.isInputRunning else { return }
            (gain, silent) = (Float(status.inputGain), status.recordsSilence)
        }
        var samples = input.read(gain: gain)
        if silent { samples = [Float](repeating: 0, count: samples.count) }
        recorded += samples
        let slice = frames * inputFormat.channels
        while running, recorded.count >= slice {
            inputTaken = false
            if let callback = inputCallback, let procedure = callback.inputProc {
                var flags: AudioUnitRenderActionFlags = 0
                var time = Self.timeStamp(inputTime)
                _ = procedure(callback.inputProcRefCon, &flags, &time, 1, UInt32(frames), nil)
            }
            if !inputTaken { recorded.removeFirst(min(slice, recorded.count)) }
            inputTime += Double(frames)
        }
        // At most a second waits for the app.
        let limit = inputFormat.sampleRate * inputFormat.channels
        if recorded.count > limit { recorded.removeFirst(recorded.count - limit) }
    }

    /// AudioUnitRender on bus 1: copies the microphone's next `frames` frames into `list` (into
    /// the unit's own buffer when its mData is NULL). From the unit's callbacks only.
    func renderInput(
        frames: Int, into list: UnsafeMutablePointer<AudioBufferList>, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>?
    ) throws(CStatus) {
        guard thread.isCurrent else { throw CStatus(Int(kAudioUnitErr_CannotDoInCurrentContext)) }
        guard inputEnabled, running else { throw CStatus(Int(kAudioUnitErr_NoConnection)) }
        guard frames > 0, frames <= Int(maximumFrames) else { throw CStatus(Int(kAudioUnitErr_TooManyFramesToProcess)) }
        guard list.pointee.mNumberBuffers == 1 else { throw CStatus(Int(kAudio_ParamError)) }
        let bytes = frames * inputFormat.bytesPerFrame
        let count = frames * inputFormat.channels
        var slice = Array(recorded.prefix(count))
        recorded.removeFirst(slice.count)
        inputTaken = true
        if slice.count < count { slice += repeatElement(0, count: count - slice.count) }
        if list.pointee.mBuffers.mData == nil {
            if inputScratchBytes < bytes {
                free(inputScratch)
                inputScratch = calloc(1, bytes)
                inputScratchBytes = bytes
            }
            list.pointee.mBuffers.mData = inputScratch
        } else if list.pointee.mBuffers.mDataByteSize < UInt32(bytes) {
            throw CStatus(Int(kAudio_ParamError))
        }
        guard let data = list.pointee.mBuffers.mData else { throw CStatus(Int(kAudio_ParamError)) }
        inputFormat.encode(slice[...], into: data)
        list.pointee.mBuffers.mDataByteSize = UInt32(bytes)
        list.pointee.mBuffers.mNumberChannels = UInt32(inputFormat.channels)
        flags?.pointee &= ~UInt32(kAudioUnitRenderAction_OutputIsSilence)
    }

    static func timeStamp(_ sampleTime: Double) -> AudioTimeStamp {
        var time = AudioTimeStamp()
        time.mSampleTime = sampleTime
        time.mHostTime = DispatchTime.now().uptimeNanoseconds
        time.mFlags = UInt32(kAudioTimeStampSampleTimeValid | kAudioTimeStampHostTimeValid)
        return time
    }
}
