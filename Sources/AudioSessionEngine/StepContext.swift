import AudioSessionModel

/// What a step has done so far: the effects it produced, by delivery phase (N2), and what
/// the route comparison after the step needs to know about the state before it (RT11).
struct StepContext {
    /// Why routes changed in this step, unless a rule of RT11 says otherwise for a session.
    enum RouteCause: Equatable {
        case plug, unplug, other
        /// RT12: a data source was selected.
        case dataSource
        /// RT11 `override`: the session's own override or preferred-input call.
        case ownChoice(Int)
        /// RT13: the user chose an output (device-wide, or for one app): `override` for every
        /// session whose route it moves.
        case userChoice
    }

    /// Phase 0: interruption events and the I/O stops they bring, in the order produced.
    var interruptions: [Effect] = []
    /// Phase 1: route changes.
    var routeChanges: [Effect] = []
    /// Phase 2: silence-secondary-audio hints.
    var hints: [Effect] = []
    /// Phase 3: every other notification.
    var rest: [Effect] = []
    /// Gains and prompts, after the notifications.
    var requests: [Effect] = []

    var cause: RouteCause = .other
    /// MS2: the step sends only its own notifications; no derived ones.
    var suppressDerived = false
    /// RT11 `wake`: active sessions get wakeFromSleep (previous = current).
    var wake = false

    /// The routing owner and its own route before the step (RT9).
    let ownerBefore: Int?
    let ownerRouteBefore: RouteKey
    /// The connected ports before the step, when the step changed them (plug, unplug).
    private(set) var portsBefore: PortTable?
    /// Sessions whose routing configuration changed, with the configuration before the step.
    var touched: [(index: Int, config: RoutingConfig)] = []

    init(ownerBefore: Int?, ownerRouteBefore: RouteKey) {
        self.ownerBefore = ownerBefore
        self.ownerRouteBefore = ownerRouteBefore
    }

    /// Records the ports before the device changes (the first change of the step wins).
    mutating func deviceChanged(from ports: PortTable, cause: RouteCause) {
        if portsBefore == nil { portsBefore = ports }
        self.cause = cause
    }

    /// Records the configuration of a session about to change (first change in the step wins).
    mutating func touch(_ index: Int, _ config: RoutingConfig) {
        if !touched.contains(where: { $0.index == index }) { touched.append((index, config)) }
    }

    func configBefore(_ index: Int) -> RoutingConfig? {
        touched.first { $0.index == index }?.config
    }

    /// The effects in delivery order (N2), moved out of the context: the largest phase's array
    /// becomes the result, the others are put before and after it, so a thousand route changes
    /// on a plug are not copied (and then released with the context) on their way out.
    mutating func takeEffects() -> [Effect] {
        let counts = [interruptions.count, routeChanges.count, hints.count, rest.count, requests.count]
        let largest = counts.indices.max { counts[$0] < counts[$1] } ?? 0
        var effects: [Effect]
        switch largest {
        case 0: effects = take(&interruptions)
        case 1: effects = take(&routeChanges)
        case 2: effects = take(&hints)
        case 3: effects = take(&rest)
        default: effects = take(&requests)
        }
        if counts[..<largest].contains(where: { $0 > 0 }) {
            effects.insert(contentsOf: [interruptions, routeChanges, hints, rest][..<largest].joined(), at: 0)
        }
        if counts[(largest + 1)...].contains(where: { $0 > 0 }) {
            effects.append(contentsOf: [routeChanges, hints, rest, requests][largest...].joined())
        }
        return effects
    }

    private func take(_ phase: inout [Effect]) -> [Effect] {
        var taken: [Effect] = []
        swap(&taken, &phase)
        return taken
    }
}
