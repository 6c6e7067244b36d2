import AudioSession
import AudioSessionModel
import Foundation

/// The iOS 4–6 delegate, still called by old code. Every method has a default that does
/// nothing, as Objective-C's optional methods would; `endInterruption(withFlags:)` calls
/// `endInterruption()` unless a delegate implements it.
public protocol AVAudioSessionDelegate: AnyObject {
    func beginInterruption()
    func endInterruption(withFlags flags: Int)
    func endInterruption()
    func inputIsAvailableChanged(_ isInputAvailable: Bool)
}

extension AVAudioSessionDelegate {
    public func beginInterruption() {}
    public func endInterruption(withFlags flags: Int) { endInterruption() }
    public func endInterruption() {}
    public func inputIsAvailableChanged(_ isInputAvailable: Bool) {}
}

/// `endInterruption(withFlags:)`: the session may resume (I3's shouldResume).
public let AVAudioSessionInterruptionFlags_ShouldResume = 1
/// `setActive(_:withFlags:)`: A6's notifyOthersOnDeactivation.
public let AVAudioSessionSetActiveFlags_NotifyOthersOnDeactivation = 1

// The deprecated members old code still calls, each the same as its current name.
extension AVAudioSession {
    /// Told of interruptions (I1–I3) and of input availability changes, on the session's event
    /// queue, after the notification is posted. Held weakly, as on iOS.
    public var delegate: (any AVAudioSessionDelegate)? {
        get { delegateBox.value }
        set { delegateBox.value = newValue }
    }

    /// A6 with the old flags: `AVAudioSessionSetActiveFlags_NotifyOthersOnDeactivation`.
    public func setActive(_ active: Bool, withFlags flags: Int) throws {
        guard flags & ~AVAudioSessionSetActiveFlags_NotifyOthersOnDeactivation == 0 else {
            throw SessionError(.badParam, "A6: unknown setActive flags \(flags)").nsError
        }
        try setActive(active, options: flags == 0 ? [] : .notifyOthersOnDeactivation)
    }

    /// `isInputAvailable`.
    public var inputIsAvailable: Bool { isInputAvailable }
    /// `sampleRate`.
    public var currentHardwareSampleRate: Double { sampleRate }
    /// `inputNumberOfChannels`.
    public var currentHardwareInputNumberOfChannels: Int { inputNumberOfChannels }
    /// `outputNumberOfChannels`.
    public var currentHardwareOutputNumberOfChannels: Int { outputNumberOfChannels }
    /// `preferredSampleRate`.
    public var preferredHardwareSampleRate: Double { preferredSampleRate }

    /// `setPreferredSampleRate(_:)`.
    public func setPreferredHardwareSampleRate(_ sampleRate: Double) throws {
        try setPreferredSampleRate(sampleRate)
    }

    /// The delegate's calls for a notification (after it was posted); `inputAvailabilityChange`
    /// is the input availability a route change changed to, if it changed it.
    func tellDelegate(_ notification: SessionNotification, inputAvailabilityChange: Bool?) {
        guard let delegate = delegateBox.value else { return }
        switch notification {
        case .interruptionBegan: delegate.beginInterruption()
        case .interruptionEnded(let shouldResume):
            delegate.endInterruption(withFlags: shouldResume ? AVAudioSessionInterruptionFlags_ShouldResume : 0)
        case .routeChange:
            if let available = inputAvailabilityChange { delegate.inputIsAvailableChanged(available) }
        default: break
        }
    }
}

/// The delegate, held weakly behind a lock (a delegate is usually a view controller, not
/// `Sendable`; it is only called on the session's serial event queue).
final class DelegateBox: @unchecked Sendable {
    private let lock = NSLock()
    private weak var stored: (any AVAudioSessionDelegate)?

    var value: (any AVAudioSessionDelegate)? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
