import AudioSessionModel
import AudioSessionRuntime
import CDesktopNotifications
import Dispatch
import Synchronization

/// P4: the daemon's question to the user when no system controller is connected, through the
/// desktop's notification server on the user's session bus (org.freedesktop.Notifications):
/// "APP wants to use the microphone", actions Allow and Don't Allow, critical, never expiring.
///
/// - No session bus, or no notification server on it: `.unanswered` at once (the arbiter's
///   fallback answers).
/// - Allow → `.granted`, Don't Allow → `.denied`; the notification closed without a choice
///   (dismissed, or closed by the server) → `.unanswered`: nobody answered, and the fallback does
///   at once rather than after the timeout **(decision)**.
/// - `withdraw` closes the notification (a controller answered, or the timeout passed).
///
/// The bus is opened for the first question and closed when none is open; all of it runs on the
/// agent's own serial queue (sd-bus is not thread-safe), which waits on the bus while a question
/// is open.
public final class NotificationPermissionAgent: PermissionAgent {
    enum Command: Sendable {
        case ask(AppID, String, @Sendable (PermissionAgentAnswer) -> Void)
        case withdraw(AppID)
    }

    private let inbox = Mutex<(commands: [Command], running: Bool)>(([], false))
    private let queue = DispatchQueue(label: "audiosession.permission-agent")
    private let appName: String

    /// `appName`: the sender the notification server shows.
    public init(appName: String = "audiosessiond") { self.appName = appName }

    public func ask(_ app: AppID, named name: String, answered: @escaping @Sendable (PermissionAgentAnswer) -> Void) {
        enqueue(.ask(app, name, answered))
    }

    public func withdraw(_ app: AppID) { enqueue(.withdraw(app)) }

    private func enqueue(_ command: Command) {
        let start = inbox.withLock { inbox -> Bool in
            inbox.commands.append(command)
            defer { inbox.running = true }
            return !inbox.running
        }
        if start { queue.async { [self] in run() } }
    }

    /// On the queue: the bus open while questions are open.
    private func run() {
        let session: Conversation
        do { session = try Conversation(appName: appName) } catch {
            // No bus: every question now and queued is unanswered.
            while let commands = take(keepRunning: false) {
                for case .ask(_, _, let answered) in commands { answered(.unanswered(error.description)) }
            }
            return
        }
        while let commands = take(keepRunning: !session.open.isEmpty) {
            for command in commands { session.carry(command) }
            session.wait()
        }
    }

    /// The commands queued; nil (and the loop ends) when there are none and it need not go on.
    private func take(keepRunning: Bool) -> [Command]? {
        inbox.withLock { inbox in
            defer { inbox.commands = [] }
            if inbox.commands.isEmpty, !keepRunning {
                inbox.running = false
                return nil
            }
            return inbox.commands
        }
    }
}

/// One connection to the session bus and the questions open on it (the agent's queue only).
final class Conversation {
    struct Failure: Error, CustomStringConvertible { var description: String }
    struct Question {
        let app: AppID
        let answered: @Sendable (PermissionAgentAnswer) -> Void
    }

    let bus: OpaquePointer
    let appName: String
    /// By notification id.
    var open: [UInt32: Question] = [:]

    init(appName: String) throws(Failure) {
        var bus: OpaquePointer?
        var error = [CChar](repeating: 0, count: 256)
        guard asn_open(&bus, &error, error.count) == 0, let bus else { throw Failure(description: Self.text(error)) }
        self.bus = bus
        self.appName = appName
    }

    deinit { asn_free(bus) }

    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func carry(_ command: NotificationPermissionAgent.Command) {
        switch command {
        case .ask(let app, let name, let answered):
            var id: UInt32 = 0
            var error = [CChar](repeating: 0, count: 256)
            guard
                asn_notify(
                    bus, appName, "\(name) wants to use the microphone",
                    "Allow it to record? Until you choose, it records silence.", &id, &error, error.count) == 0
            else { return answered(.unanswered(Self.text(error))) }
            open[id] = Question(app: app, answered: answered)
        case .withdraw(let app):
            for (id, question) in open where question.app == app {
                open[id] = nil
                asn_close_notification(bus, id)
            }
        }
    }

    /// What the bus brought, waiting up to 50 ms while a question is open; a broken bus leaves
    /// every open question unanswered.
    func wait() {
        var id: UInt32 = 0
        var answer: Int32 = 0
        var timeout: UInt64 = open.isEmpty ? 0 : 50_000
        while true {
            let result = asn_next_answer(bus, timeout, &id, &answer)
            timeout = 0
            if result < 0 {
                for question in open.values { question.answered(.unanswered("the session bus went away")) }
                open = [:]
                return
            }
            guard result == 1 else { return }
            guard let question = open.removeValue(forKey: id) else { continue }
            switch answer {
            case Int32(ASN_ALLOW): question.answered(.granted)
            case Int32(ASN_DENY): question.answered(.denied)
            default: question.answered(.unanswered("the notification was closed without a choice"))
            }
        }
    }
}
