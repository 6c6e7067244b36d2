import AudioSessionModel
import Dispatch

/// P4: who asks the user for an app's record permission when no system controller is connected
/// to — on a desktop, its notification server ("APP wants to use the microphone", Allow and
/// Don't Allow). The daemon gives one to its arbiter; an embedded arbiter has none.
public protocol PermissionAgent: Sendable {
    /// Asks the user; `answered` is called once, on any thread, never from within this call:
    /// `.granted` or `.denied` when the user chose, `.unanswered(why)` when nobody can be asked
    /// (no notification server) or the question went away unanswered (the notification closed).
    func ask(_ app: AppID, named name: String, answered: @escaping @Sendable (PermissionAgentAnswer) -> Void)
    /// The question about `app` is answered otherwise (a controller, the timeout): take it back.
    func withdraw(_ app: AppID)
}

/// What a permission agent heard from the user.
public enum PermissionAgentAnswer: Sendable, Equatable {
    case granted, denied
    case unanswered(String)
}

extension Arbiter {
    /// P4: no system controller can be asked. The permission agent asks the user when there is
    /// one; the profile's `permission-fallback` answers when there is none, when the agent cannot
    /// ask, and when nobody answers within `permission-timeout`. Without a fallback (an embedded
    /// arbiter) the prompt waits, as P2 says of a user who never answers.
    func askWithoutController(_ app: AppID, _ state: inout State) {
        guard let agent = configuration.permissionAgent, state.rules.permissionFallback != nil else {
            guard let granted = state.rules.permissionFallback else {
                logger.info("record permission prompt for \(app) waits: no system controller is connected")
                return
            }
            return answerByFallback(app, granted: granted, why: "no system controller is connected", &state)
        }
        guard state.agentAsks.insert(app).inserted else { return }  // asked already: P2, nothing more
        let name = ProcessName.of(state.connectionByApp[app].flatMap { state.connections[$0.id]?.peer.pid })
        let timeout = state.rules.permissionTimeout
        logger.info(
            "record permission for \(app) asked of the user (P4): no system controller is connected",
            metadata: ["program": "\(name ?? "unknown")", "timeout": "\(timeout)"])
        // Outside the lock: an agent may answer at once on another thread.
        DispatchQueue.global().async { [weak self] in
            guard let self else { return }
            agent.ask(app, named: name.map { "\($0) (\(app))" } ?? "\(app)") { [weak self] answer in
                self?.agentAnswered(app, answer)
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout.dispatchInterval) { [weak self] in
            self?.agentTimedOut(app)
        }
    }

    /// The agent's answer, if the question is still open.
    func agentAnswered(_ app: AppID, _ answer: PermissionAgentAnswer) {
        state.withLock { state in
            guard state.agentAsks.remove(app) != nil else { return }
            switch answer {
            case .granted, .denied:
                logger.info(
                    "record permission for \(app) answered by the user through the notification (P4)",
                    metadata: ["answer": "\(answer == .granted ? "granted" : "denied")"])
                answerRecordPermission(app, granted: answer == .granted, &state)
            case .unanswered(let why):
                guard let granted = state.rules.permissionFallback else { return }
                answerByFallback(app, granted: granted, why: why, &state)
            }
        }
    }

    /// `permission-timeout` passed: the fallback answers a question still open, and the agent
    /// takes it back.
    func agentTimedOut(_ app: AppID) {
        let timedOut = state.withLock { state -> Bool in
            guard state.agentAsks.remove(app) != nil, let granted = state.rules.permissionFallback else { return false }
            answerByFallback(app, granted: granted, why: "nobody answered within permission-timeout", &state)
            return true
        }
        if timedOut { configuration.permissionAgent?.withdraw(app) }
    }

    /// A controller answered while the agent was asking: the agent's question is taken back.
    func controllerAnswered(_ app: AppID, _ state: inout State) {
        guard state.agentAsks.remove(app) != nil, let agent = configuration.permissionAgent else { return }
        DispatchQueue.global().async { agent.withdraw(app) }
    }

    private func answerByFallback(_ app: AppID, granted: Bool, why: String, _ state: inout State) {
        // Stored and logged like any answer; a controller may change it later (P1).
        logger.info(
            "record permission for \(app) answered by permission-fallback (P4): \(why)",
            metadata: ["answer": "\(granted ? "granted" : "denied")"])
        answerRecordPermission(app, granted: granted, &state)
    }
}
