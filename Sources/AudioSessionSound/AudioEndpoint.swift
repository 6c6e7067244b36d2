#if canImport(Glibc)
import Glibc
#endif

/// Where players play and recorders record.
public enum AudioEndpoint: Sendable, Equatable {
    /// A PulseAudio server or PipeWire's pipewire-pulse (`nil`: libpulse's default, from
    /// `PULSE_SERVER` or the user's server). The daemon's pulse backend moves these streams to
    /// the session's route and applies its gain.
    case soundServer(String?)
    /// The simulated device: a player writes what it plays, times the session's gain, to
    /// `<directory>/<app>.<output port UID>.wav` (one file per port it played on); a recorder
    /// records a simulated microphone (a 440 Hz tone at −12 dBFS times the input gain).
    case files(directory: String)

    /// `AUDIOSESSION_RENDER_DIR` when set (the simulated device), else the sound server.
    public static var automatic: AudioEndpoint {
        if let value = getenv("AUDIOSESSION_RENDER_DIR"), value.pointee != 0 {
            return .files(directory: String(cString: value))
        }
        return .soundServer(nil)
    }
}

/// A player or recorder could not start; the message says what and why.
public struct MediaError: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
