import AudioSessionSound
import Foundation

/// Apple's `AVAudioUnit`: a node that processes audio. Here only the time effects below are
/// offered; instantiating units by component description is not (SPEC EN10).
open class AVAudioUnit: AVAudioNode, @unchecked Sendable {}

/// Apple's `AVAudioUnitTimeEffect`: an effect that changes the time of what passes through it.
open class AVAudioUnitTimeEffect: AVAudioUnit, @unchecked Sendable {
    /// Passes the input on unchanged.
    open var bypass: Bool {
        get { false }
        set {}
    }
}

/// Apple's `AVAudioUnitTimePitch` (SPEC EN4): `rate` 1/32–32 changes the speed and keeps the
/// pitch; `pitch` moves it by cents (±2400); `overlap` 3–32 — through SoundTouch, a well-kept
/// time-stretching library. Its input is converted to its output's rate where they differ.
open class AVAudioUnitTimePitch: AVAudioUnitTimeEffect, @unchecked Sendable {
    private let stretch: TimePitchKernel

    public init() {
        let stretch = TimePitchKernel()
        self.stretch = stretch
        super.init(kernel: stretch)
    }

    /// 1/32–32 (1: as it is), clamped.
    open var rate: Float {
        get { stretch.rate }
        set { stretch.rate = newValue }
    }
    /// Cents, −2400…2400 (0: as it is), clamped.
    open var pitch: Float {
        get { stretch.pitch }
        set { stretch.pitch = newValue }
    }
    /// 3–32 (default 8), clamped.
    open var overlap: Float {
        get { stretch.overlap }
        set { stretch.overlap = newValue }
    }
    override open var bypass: Bool {
        get { stretch.bypass }
        set { stretch.bypass = newValue }
    }
}

/// Apple's `AVAudioUnitVarispeed` (SPEC EN4): `rate` 0.25–4 plays faster or slower, the pitch
/// following, resampled by the one converter.
open class AVAudioUnitVarispeed: AVAudioUnitTimeEffect, @unchecked Sendable {
    private let speed: VarispeedKernel

    public init() {
        let speed = VarispeedKernel()
        self.speed = speed
        super.init(kernel: speed)
    }

    /// 0.25–4 (1: as it is), clamped.
    open var rate: Float {
        get { speed.rate }
        set { speed.rate = newValue }
    }
    override open var bypass: Bool {
        get { speed.bypass }
        set { speed.bypass = newValue }
    }
}
