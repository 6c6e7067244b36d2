import AudioSessionMedia
import Foundation

/// What the level tests hear, waited for as the sound settles rather than after a fixed sleep
/// (issue 47: on a loaded machine a duck, a mute or a stream's start can take longer to be heard
/// than any sleep a test could choose, and a window with a gap in it reads low).
extension LevelMeter {
    /// The level heard steadily: the median of five 100 ms windows (a window with a gap in it — a
    /// client or the meter starved for a moment — does not move it).
    func steadyLevel() -> Double {
        (0..<5).map { _ in level(over: 0.1) }.sorted()[2]
    }

    /// Listens until the steady level meets `condition` (at most `seconds`); returns the last
    /// level heard, for the expectation and its message.
    func settle(within seconds: Double = 5, until condition: (Double) -> Bool) -> Double {
        let deadline = Date().addingTimeInterval(seconds)
        var heard = steadyLevel()
        while !condition(heard), Date() < deadline { heard = steadyLevel() }
        return heard
    }

    /// Listens until a whole `window` is silent (below −60 dBFS, at most `seconds`); returns the
    /// last window's level.
    func settleToSilence(within seconds: Double = 5, window: Double = 0.3) -> Double {
        let deadline = Date().addingTimeInterval(seconds)
        var heard = level(over: window)
        while heard >= -60, Date() < deadline { heard = level(over: window) }
        return heard
    }
}
