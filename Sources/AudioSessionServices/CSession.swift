import AudioSessionClient
import AudioSessionModel
import CAudioSessionServices
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The C API's session: one per process, as on iOS (SPEC §14). It holds the listeners the C
/// program registered and what the library handed out, and turns the session's notifications
/// into listener calls. All logic is `AudioSession`'s; this only converts.
final class CSession: Sendable {
    static let shared = CSession()

    /// A C pointer the program gave us; we only hand it back.
    struct ClientData: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer?
    }

    struct PropertyListener: @unchecked Sendable {
        let property: AudioSessionPropertyID
        let procedure: AudioSessionPropertyListener
        let clientData: ClientData
    }

    struct State: Sendable {
        var session: AudioSession?
        var interruptionListener: (procedure: AudioSessionInterruptionListener, clientData: ClientData)?
        var listeners: [PropertyListener] = []
        /// The override properties' bits (`cmix` 1, `duck` 2, `cblu` 4, `cspk` 8), cleared by a
        /// category change and by a media-services reset.
        var overrides: CategoryOptions = []
        /// `aiav` and `igav` as last told to listeners.
        var inputAvailable: Bool?
        var gainAvailable: Bool?
        /// 'type' while an end-interruption callback runs, with the thread it runs on.
        var endInterruption: (thread: pthread_t, type: UInt32)?
        /// What 'rout' and 'crar' last returned, kept until the property is read again.
        var routeName: CString?
        var routeDescription: CRoute?
    }

    let state = Mutex(State())

    /// This process's session, as `AudioSession.shared` would be but with the client alone: the
    /// C library links FoundationEssentials, not Foundation (no ICU; issue 31), and C callers
    /// hear through their listeners, not NotificationCenter.
    static let processSession: AudioSession = {
        let (app, capabilities) = AudioSession.processIdentity()
        return AudioSession(appID: app, capabilities: capabilities, transport: .fromEnvironment, poster: nil)
    }()

    /// The session, or `!ini` before AudioSessionInitialize.
    func session() throws(CStatus) -> AudioSession {
        guard let session = state.withLock({ $0.session }) else { throw CStatus(kAudioSessionNotInitialized) }
        return session
    }

    /// AudioSessionInitialize: connects the process's session and starts listening.
    func initialize(_ listener: AudioSessionInterruptionListener?, _ clientData: ClientData) throws(CStatus) {
        let session = Self.processSession
        let first = state.withLock { state -> Bool in
            guard state.session == nil else { return false }
            state.session = session
            if let listener { state.interruptionListener = (listener, clientData) }
            return true
        }
        guard first else { throw CStatus(kAudioSessionAlreadyInitialized) }  // the first listener stays
        do {
            try session.connect()
        } catch {
            state.withLock { $0 = State() }
            throw CStatus(kAudioSessionInitializationError)
        }
        session.addNotificationHandler { [self] notification in deliver(notification, session) }
    }
}

/// An OSStatus to return to C.
struct CStatus: Error {
    let value: OSStatus

    init(_ constant: Int) { value = OSStatus(truncatingIfNeeded: constant) }
    init(_ error: SessionError) { value = error.code.rawValue }

    static let badParameter = CStatus(kAudioSessionBadParameterError)
    static let unsupported = CStatus(kAudioSessionUnsupportedPropertyError)
    static let badSize = CStatus(kAudioSessionBadPropertySizeError)
}

extension CStatus {
    /// Runs `body`, turning a thrown status or session error into its OSStatus; 0 on success.
    static func of(_ body: () throws -> Void) -> OSStatus {
        do {
            try body()
            return 0
        } catch let status as CStatus {
            return status.value
        } catch let error as SessionError {
            return error.code.rawValue
        } catch {
            return OSStatus(truncatingIfNeeded: kAudioSessionUnspecifiedError)
        }
    }
}
