import AudioSessionModel

/// What an app last set, to re-apply after a media-services reset when asked (MS2).
struct RememberedConfiguration: Sendable {
    var category: (Category, Mode, CategoryOptions)?
    var preferences: [HardwarePreference] = []
    var preferredInput: String??
    var isActive = false

    /// Records a call that succeeded.
    mutating func remember(_ call: AppCall) {
        switch call {
        case .setCategory(let category, let mode, let options): self.category = (category, mode, options)
        case .setMode(let mode):
            let current = category ?? (.soloAmbient, .default, [])
            category = (current.0, mode, current.2)
        case .setActive(let active, _): isActive = active
        case .setPreferences(let list): preferences += list
        case .setPreferredInput(let uid): preferredInput = .some(uid)
        default: break
        }
    }

    /// The calls that rebuild this configuration on a fresh session, in order.
    var calls: [AppCall] {
        var calls: [AppCall] = []
        if let (category, mode, options) = category { calls.append(.setCategory(category, mode: mode, options: options)) }
        if !preferences.isEmpty { calls.append(.setPreferences(preferences)) }
        if case .some(let uid) = preferredInput { calls.append(.setPreferredInput(uid)) }
        if isActive { calls.append(.setActive(true)) }
        return calls
    }
}

extension AudioSession {
    func remember(_ call: AppCall) {
        state.withLock { $0.remembered.remember(call) }
    }
}
