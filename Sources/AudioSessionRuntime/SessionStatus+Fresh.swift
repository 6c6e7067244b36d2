import AudioSessionEngine
import AudioSessionModel

extension SessionStatus {
    /// A new app's session on a simulated iPhone (C8: soloAmbient, inactive, defaults), for a
    /// client that could never read its own (the daemon unreachable, MS1).
    public static func fresh(_ app: AppID) -> SessionStatus {
        var engine = Engine()
        try? engine.register(app)
        return engine.status(of: app)!
    }
}
