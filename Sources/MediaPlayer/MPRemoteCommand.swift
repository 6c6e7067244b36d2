import Foundation
import Synchronization

/// What a remote command's handler answers.
public enum MPRemoteCommandHandlerStatus: Int, Sendable {
    case success = 0, noSuchContent = 100, noActionableNowPlayingItem = 110, deviceNotFound = 120, commandFailed = 200
}

/// A remote command's event: which command, and when.
open class MPRemoteCommandEvent: @unchecked Sendable {
    public let command: MPRemoteCommand
    public let timestamp: TimeInterval
    init(command: MPRemoteCommand) {
        self.command = command
        timestamp = ProcessInfo.processInfo.systemUptime
    }
}

/// `changePlaybackPositionCommand`'s event: the position asked for, in seconds.
public final class MPChangePlaybackPositionCommandEvent: MPRemoteCommandEvent, @unchecked Sendable {
    public let positionTime: TimeInterval
    init(command: MPRemoteCommand, positionTime: TimeInterval) {
        self.positionTime = positionTime
        super.init(command: command)
    }
}

/// `skipForwardCommand`'s and `skipBackwardCommand`'s event: the interval, in seconds.
public final class MPSkipIntervalCommandEvent: MPRemoteCommandEvent, @unchecked Sendable {
    public let interval: TimeInterval
    init(command: MPRemoteCommand, interval: TimeInterval) {
        self.interval = interval
        super.init(command: command)
    }
}

/// `changePlaybackRateCommand`'s event.
public final class MPChangePlaybackRateCommandEvent: MPRemoteCommandEvent, @unchecked Sendable {
    public let playbackRate: Float
    init(command: MPRemoteCommand, playbackRate: Float) {
        self.playbackRate = playbackRate
        super.init(command: command)
    }
}

/// The repeat mode (`changeRepeatModeCommand`; MPRIS `LoopStatus` None, Track, Playlist).
public enum MPRepeatType: Int, Sendable {
    case off = 0, one = 1, all = 2
}

/// The shuffle mode (`changeShuffleModeCommand`; MPRIS `Shuffle` false or true).
public enum MPShuffleType: Int, Sendable {
    case off = 0, items = 1, collections = 2
}

/// `changeRepeatModeCommand`'s event: the repeat mode asked for.
public final class MPChangeRepeatModeCommandEvent: MPRemoteCommandEvent, @unchecked Sendable {
    public let repeatType: MPRepeatType
    public let preservesRepeatMode: Bool
    init(command: MPRemoteCommand, repeatType: MPRepeatType) {
        self.repeatType = repeatType
        preservesRepeatMode = false
        super.init(command: command)
    }
}

/// `changeShuffleModeCommand`'s event: the shuffle mode asked for.
public final class MPChangeShuffleModeCommandEvent: MPRemoteCommandEvent, @unchecked Sendable {
    public let shuffleType: MPShuffleType
    public let preservesShuffleMode: Bool
    init(command: MPRemoteCommand, shuffleType: MPShuffleType) {
        self.shuffleType = shuffleType
        preservesShuffleMode = false
        super.init(command: command)
    }
}

/// `likeCommand`'s, `dislikeCommand`'s and `bookmarkCommand`'s event.
public final class MPFeedbackCommandEvent: MPRemoteCommandEvent, @unchecked Sendable {
    public let isNegative: Bool
    init(command: MPRemoteCommand, isNegative: Bool) {
        self.isNegative = isNegative
        super.init(command: command)
    }
}

/// One remote command: enabled or not, and its handlers. The desktop's media controls offer a
/// command while it is enabled and has a handler (`CanPlay`, `CanGoNext`, `CanSeek`…); the
/// handlers run on the main queue, as on iOS.
open class MPRemoteCommand: @unchecked Sendable {
    /// (The handlers run on the main queue only, as on iOS.)
    private struct Target: @unchecked Sendable {
        let token: NSObject
        let handler: (MPRemoteCommandEvent) -> MPRemoteCommandHandlerStatus
    }
    private let state = Mutex<(enabled: Bool, targets: [Target])>((true, []))
    let changed: @Sendable () -> Void

    init(changed: @escaping @Sendable () -> Void) { self.changed = changed }

    public var isEnabled: Bool {
        get { state.withLock { $0.enabled } }
        set {
            state.withLock { $0.enabled = newValue }
            changed()
        }
    }

    /// Adds a handler; the returned object removes it (`removeTarget(_:)`).
    @discardableResult
    public func addTarget(handler: @escaping (MPRemoteCommandEvent) -> MPRemoteCommandHandlerStatus) -> Any {
        let token = NSObject()
        state.withLock { $0.targets.append(Target(token: token, handler: handler)) }
        changed()
        return token
    }

    /// Removes a handler (`nil`: every handler).
    public func removeTarget(_ target: Any?) {
        state.withLock { state in
            if let token = target as? NSObject { state.targets.removeAll { $0.token === token } } else { state.targets = [] }
        }
        changed()
    }

    /// Whether the desktop may send it: enabled, with a handler.
    var isOffered: Bool { state.withLock { $0.enabled && !$0.targets.isEmpty } }

    /// Runs the handlers with the event (on the caller's thread); the last handler's status.
    @discardableResult
    func perform(_ event: MPRemoteCommandEvent) -> MPRemoteCommandHandlerStatus {
        let (enabled, targets) = state.withLock { ($0.enabled, $0.targets) }
        guard enabled, !targets.isEmpty else { return .commandFailed }
        var status = MPRemoteCommandHandlerStatus.success
        for target in targets { status = target.handler(event) }
        return status
    }
}

/// Skip commands, with the intervals the app prefers (the desktop's Seek uses the position).
public final class MPSkipIntervalCommand: MPRemoteCommand, @unchecked Sendable {
    private let intervals = Mutex<[NSNumber]>([15])
    public var preferredIntervals: [NSNumber] {
        get { intervals.withLock { $0 } }
        set { intervals.withLock { $0 = newValue } }
    }
}

public final class MPChangePlaybackRateCommand: MPRemoteCommand, @unchecked Sendable {
    private let rates = Mutex<[NSNumber]>([])
    public var supportedPlaybackRates: [NSNumber] {
        get { rates.withLock { $0 } }
        set { rates.withLock { $0 = newValue } }
    }
}

public final class MPChangePlaybackPositionCommand: MPRemoteCommand, @unchecked Sendable {}

/// Like/dislike/bookmark: kept so that code using them builds; the desktop has no such button.
public final class MPFeedbackCommand: MPRemoteCommand, @unchecked Sendable {
    public var isActive = false
    public var localizedTitle = ""
    public var localizedShortTitle = ""
}

/// The repeat command, with the mode the app shows (MPRIS `LoopStatus` reads it).
public final class MPChangeRepeatModeCommand: MPRemoteCommand, @unchecked Sendable {
    private let mode = Mutex(MPRepeatType.off)
    public var currentRepeatType: MPRepeatType {
        get { mode.withLock { $0 } }
        set {
            mode.withLock { $0 = newValue }
            changed()
        }
    }
}

/// The shuffle command, with the mode the app shows (MPRIS `Shuffle` reads it).
public final class MPChangeShuffleModeCommand: MPRemoteCommand, @unchecked Sendable {
    private let mode = Mutex(MPShuffleType.off)
    public var currentShuffleType: MPShuffleType {
        get { mode.withLock { $0 } }
        set {
            mode.withLock { $0 = newValue }
            changed()
        }
    }
}
