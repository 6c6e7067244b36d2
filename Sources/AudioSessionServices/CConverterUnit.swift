import AudioSessionSound
import CAudioSessionServices
import Synchronization

/// SO9: the AUConverter unit (`kAudioUnitType_FormatConverter`, `kAudioUnitSubType_AUConverter`):
/// linear PCM from its input scope's stream format to its output scope's, pulled with
/// `AudioUnitRender` on bus 0, which calls the input render callback on the caller's thread for
/// as many frames as the conversion needs — through the one converter (`CAudioConverter`).
/// Its formats default to the session's rate, stereo, float, interleaved.
final class CConverterUnit: @unchecked Sendable {
    private struct State: @unchecked Sendable {  // its pointers and callback are the unit's caller's, used under the lock
        var inputFormat: CPCMFormat
        var outputFormat: CPCMFormat
        var callback: AURenderCallbackStruct?
        var maximumFrames: UInt32 = 4_096
        var converter: CAudioConverter?
        /// Where the callback's frames are rendered (made at initialize, grown when asked for more).
        var scratch: UnsafeMutableRawPointer?
        var scratchBytes = 0
        var sampleTime: Double = 0
    }
    private let state: Mutex<State>

    init(sampleRate: Int) {
        let format = CPCMFormat(sampleRate: sampleRate, channels: 2, isFloat: true)
        state = Mutex(State(inputFormat: format, outputFormat: format))
    }

    deinit { state.withLock { $0.scratch?.deallocate() } }

    /// The format of a scope's bus 0 (the global scope: the output's).
    private static func element(_ element: AudioUnitElement) throws(CStatus) {
        guard element == 0 else { throw CAudioUnit.invalidElement }
    }

    func property(_ id: AudioUnitPropertyID, scope: AudioUnitScope, element: AudioUnitElement) throws(CStatus) -> [UInt8] {
        try state.withLock { state throws(CStatus) in
            let format = Int(scope) == kAudioUnitScope_Input ? state.inputFormat : state.outputFormat
            switch Int(id) {
            case kAudioUnitProperty_StreamFormat:
                try Self.element(element)
                return CAudioUnit.bytes(of: format.description)
            case kAudioUnitProperty_SampleRate:
                try Self.element(element)
                return CAudioUnit.bytes(of: Float64(format.sampleRate))
            case kAudioUnitProperty_MaximumFramesPerSlice:
                return CAudioUnit.bytes(of: state.maximumFrames)
            default:
                throw CAudioUnit.invalidProperty
            }
        }
    }

    func setProperty(
        _ id: AudioUnitPropertyID, scope: AudioUnitScope, element: AudioUnitElement, _ data: UnsafeRawPointer, size: Int
    ) throws(CStatus) {
        func value<T>(_ type: T.Type) throws(CStatus) -> T {
            guard size == MemoryLayout<T>.size else { throw CStatus(Int(kAudio_ParamError)) }
            return data.loadUnaligned(as: T.self)
        }
        let input = Int(scope) == kAudioUnitScope_Input
        try state.withLock { state throws(CStatus) in
            switch Int(id) {
            case kAudioUnitProperty_StreamFormat, kAudioUnitProperty_SampleRate:
                try Self.element(element)
                guard state.converter == nil else { throw CStatus(Int(kAudioUnitErr_Initialized)) }
                let format: CPCMFormat
                if Int(id) == kAudioUnitProperty_StreamFormat {
                    do throws(CStatus) { format = try CPCMFormat(try value(AudioStreamBasicDescription.self)) } catch {
                        throw CStatus(Int(kAudioUnitErr_FormatNotSupported))
                    }
                } else {
                    let rate = try value(Float64.self)
                    guard (8_000...192_000).contains(rate) else { throw CStatus(Int(kAudioUnitErr_FormatNotSupported)) }
                    let old = input ? state.inputFormat : state.outputFormat
                    format = CPCMFormat(sampleRate: Int(rate), channels: old.channels, isFloat: old.isFloat)
                }
                if input { state.inputFormat = format } else { state.outputFormat = format }
            case kAudioUnitProperty_SetRenderCallback:
                guard input else { throw CAudioUnit.invalidProperty }
                state.callback = try value(AURenderCallbackStruct.self)
            case kAudioUnitProperty_MaximumFramesPerSlice:
                state.maximumFrames = try value(UInt32.self)
            default:
                throw CAudioUnit.invalidProperty
            }
        }
    }

    func initialize() throws(CStatus) {
        try state.withLock { state throws(CStatus) in
            guard state.converter == nil else { return }
            state.converter = try CAudioConverter(input: state.inputFormat, output: state.outputFormat)
        }
    }

    func uninitialize() {
        state.withLock { $0.converter = nil }
    }

    /// AudioUnitRender on bus 0: `frames` converted frames into the list's first buffer, the
    /// input callback asked for what they take.
    func render(frames: Int, into list: UnsafeMutablePointer<AudioBufferList>) throws(CStatus) {
        var state = self.state.withLock { $0 }
        guard let converter = state.converter else { throw CStatus(Int(kAudioUnitErr_Uninitialized)) }
        guard let callback = state.callback, let procedure = callback.inputProc else {
            throw CStatus(Int(kAudioUnitErr_NoConnection))
        }
        guard frames <= Int(state.maximumFrames) else { throw CStatus(Int(kAudioUnitErr_TooManyFramesToProcess)) }
        guard list.pointee.mNumberBuffers >= 1, let data = list.pointee.mBuffers.mData else {
            throw CStatus(Int(kAudio_ParamError))
        }
        let bytesPerFrame = converter.output.bytesPerFrame
        guard Int(list.pointee.mBuffers.mDataByteSize) >= frames * bytesPerFrame else { throw CStatus(Int(kAudio_ParamError)) }
        let (made, status) = converter.fill(frames: frames, into: data) { asked in
            let count = min(asked, Int(state.maximumFrames))
            let bytes = count * converter.input.bytesPerFrame
            if state.scratchBytes < bytes {
                state.scratch?.deallocate()
                state.scratch = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 16)
                state.scratchBytes = bytes
            }
            var pulled = AudioBufferList(
                mNumberBuffers: 1,
                mBuffers: AudioBuffer(
                    mNumberChannels: UInt32(converter.input.channels), mDataByteSize: UInt32(bytes), mData: state.scratch))
            var actions = AudioUnitRenderActionFlags(0)
            var time = AudioTimeStamp()
            time.mSampleTime = state.sampleTime
            time.mFlags = UInt32(kAudioTimeStampSampleTimeValid)
            state.sampleTime += Double(count)
            let answer = procedure(callback.inputProcRefCon, &actions, &time, 0, UInt32(count), &pulled)
            guard answer == 0 else { return .failed(answer) }
            return .data(UnsafeRawPointer(state.scratch!), frames: count)
        }
        let (scratch, scratchBytes, sampleTime) = (state.scratch, state.scratchBytes, state.sampleTime)
        self.state.withLock { ($0.scratch, $0.scratchBytes, $0.sampleTime) = (scratch, scratchBytes, sampleTime) }
        guard status == 0 else { throw CStatus(Int(status)) }
        if made < frames {  // the input ended: silence after it
            (data + made * bytesPerFrame).initializeMemory(as: UInt8.self, repeating: 0, count: (frames - made) * bytesPerFrame)
        }
        list.pointee.mBuffers.mDataByteSize = UInt32(frames * bytesPerFrame)
    }
}
