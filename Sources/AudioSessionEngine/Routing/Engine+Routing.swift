import AudioSessionModel

/// The routing owner and each session's current route (SPEC RT9–RT11).
extension Engine {
    /// RT9: the most recently activated active non-mixable app session, else the most recently
    /// activated active app session, else none. audioProcessing sessions never own (A8).
    var routingOwner: Int? {
        var fallback: Int?
        for index in activeSessions.reversed() {
            guard sessions[index].takesPartInArbitration else { continue }
            if !sessions[index].isMixable { return index }
            if fallback == nil { fallback = index }
        }
        return fallback
    }

    /// The route a session's own configuration chooses (RT1–RT8).
    func ownRoute(_ index: Int?) -> RouteKey {
        guard let index else { return .none }
        return RouteSelection.route(for: sessions[index].routingConfig, on: device.ports)
    }

    /// RT10: the currentRoute of a session with this configuration, given the routing owner,
    /// the owner's route and the connected ports.
    static func currentRouteKey(
        _ index: Int, owner: Int?, ownerRoute: RouteKey, config: RoutingConfig, ports: PortTable
    ) -> RouteKey {
        let own = RouteSelection.route(for: config, on: ports)
        guard let owner, owner != index else { return own }
        var shown = RouteSelection.shown(own: own, category: config.category, owner: ownerRoute)
        // RT13 (b): the output the user chose for this app is its own, whoever owns the route.
        if let chosen = config.chosenOutput, own.outputs != 0, ports.slots[own.outputs.trailingZeroBitCount] == chosen {
            shown.outputs = own.outputs
        }
        return shown
    }

    func currentRouteKey(_ index: Int, owner: Int?, ownerRoute: RouteKey, config: RoutingConfig) -> RouteKey {
        Self.currentRouteKey(index, owner: owner, ownerRoute: ownerRoute, config: config, ports: device.ports)
    }

    func currentRouteKey(_ index: Int) -> RouteKey {
        let owner = routingOwner
        return currentRouteKey(index, owner: owner, ownerRoute: ownRoute(owner), config: sessions[index].routingConfig)
    }

    /// I7: whether a route's input is the built-in microphone.
    func recordsFromBuiltInMicrophone(_ route: RouteKey) -> Bool {
        route.inputs != 0 && device.ports.slots[route.inputs.trailingZeroBitCount].type == .microphoneBuiltIn
    }

    /// RT10: the session's current route as ports.
    func currentRoute(_ index: Int) -> Route {
        currentRouteKey(index).route(on: device.ports)
    }

    /// Changes a session's configuration, keeping the route groups and the step's record of
    /// what changed (RT11) up to date. Every configuration change goes through here.
    mutating func configure(
        _ index: Int, _ category: Category, _ mode: Mode, _ options: CategoryOptions, _ context: inout StepContext
    ) {
        reconfigure(index, &context) { $0.configure(category, mode, options) }
    }

    /// Applies a change to what decides a session's route, recording it for RT11 and keeping
    /// the route groups and the list of sessions with a routing choice (RT7, RT8) up to date.
    mutating func reconfigure(_ index: Int, _ context: inout StepContext, _ change: (inout SessionRecord) -> Void) {
        let old = sessions[index].routingConfig
        context.touch(index, old)
        change(&sessions[index])
        let new = sessions[index].routingConfig
        routeGroups.move(index, from: old, to: new)
        let listed = sessionsWithRoutingChoice.firstIndex(of: index)
        if sessions[index].hasRoutingChoice, listed == nil { sessionsWithRoutingChoice.append(index) }
        if !sessions[index].hasRoutingChoice, let listed { sessionsWithRoutingChoice.remove(at: listed) }
    }

    /// RT11: sends `route-change` to every session whose current route changed in this step.
    mutating func sendRouteChanges(_ context: inout StepContext) {
        let owner = routingOwner
        let comparison = RouteComparison(
            context: context, ownerAfter: owner, ownerRouteAfter: ownRoute(owner), portsAfter: device.ports)
        // Each session that changed, with its change's position in `distinct`: the members of a
        // group share one (a thousand on a plug), so a route pair is kept once, not per session.
        var distinct: [(before: Route, after: Route)] = []
        var changed: [(index: Int, change: Int)] = []

        // Sessions whose own configuration or ownership changed are compared one by one.
        let ownerBefore = context.ownerBefore
        let ownerAfter = comparison.ownerAfter
        func isIndividual(_ index: Int) -> Bool {
            index == ownerBefore || index == ownerAfter || context.configBefore(index) != nil
        }
        func compare(_ index: Int) {
            let configBefore = context.configBefore(index) ?? sessions[index].routingConfig
            if let change = comparison.change(index, configBefore: configBefore, configAfter: sessions[index].routingConfig) {
                distinct.append(change)
                changed.append((index, distinct.count - 1))
            }
        }
        for (index, _) in context.touched { compare(index) }
        if let ownerBefore, context.configBefore(ownerBefore) == nil { compare(ownerBefore) }
        if let ownerAfter, ownerAfter != ownerBefore, context.configBefore(ownerAfter) == nil { compare(ownerAfter) }

        // Everyone else follows the owner: check once per group when the owner's route or the
        // device changed, and visit the members only of groups whose route changed.
        if comparison.everyoneMayHaveChanged {
            for group in routeGroups.groups {
                guard let change = comparison.change(nil, configBefore: group.config, configAfter: group.config) else {
                    continue
                }
                distinct.append(change)
                for index in group.members where !isIndividual(index) { changed.append((index, distinct.count - 1)) }
            }
        }
        // In session order; each notification made once, in place. A session has at most one
        // change, so its index and position are one Int, sorted without a closure.
        let order = changed.indices.map { changed[$0].index << 32 | $0 }.sorted()
        context.routeChanges.reserveCapacity(context.routeChanges.count + changed.count)
        for key in order {
            let (index, change) = changed[key & 0xFFFF_FFFF]
            context.routeChanges.append(.notify(appIDs[index], routeChange(index, distinct[change], context)))
        }
    }

    /// RT11: the one reason of a route change, the first that applies.
    private func routeChange(
        _ index: Int, _ change: (before: Route, after: Route), _ context: StepContext
    )
        -> SessionNotification
    {
        let category = sessions[index].category
        let lostInput = category.hasInput && change.after.inputs.isEmpty && !change.before.inputs.isEmpty
        let lostOutput = category.hasOutput && change.after.outputs.isEmpty && !change.before.outputs.isEmpty
        let reason: RouteChangeReason =
            if lostInput || lostOutput {
                .noSuitableRouteForCategory
            } else {
                switch context.cause {
                case .plug: .newDeviceAvailable
                case .unplug: .oldDeviceUnavailable
                case .ownChoice(let caller) where caller == index: .override
                case .userChoice: .override  // RT13
                case .dataSource: .routeConfigurationChange
                case .ownChoice, .other: .categoryChange
                }
            }
        return .routeChange(reason: reason, previous: change.before, current: change.after)
    }
}

/// The state before and after a step, as far as routes go (RT11).
struct RouteComparison {
    let ownerBefore: Int?
    let ownerRouteBefore: RouteKey
    let portsBefore: PortTable
    let ownerAfter: Int?
    let ownerRouteAfter: RouteKey
    let portsAfter: PortTable
    let deviceChanged: Bool

    init(context: StepContext, ownerAfter: Int?, ownerRouteAfter: RouteKey, portsAfter: PortTable) {
        ownerBefore = context.ownerBefore
        ownerRouteBefore = context.ownerRouteBefore
        portsBefore = context.portsBefore ?? portsAfter
        self.ownerAfter = ownerAfter
        self.ownerRouteAfter = ownerRouteAfter
        self.portsAfter = portsAfter
        deviceChanged = context.portsBefore != nil
    }

    /// Whether sessions whose configuration did not change may still see another route.
    var everyoneMayHaveChanged: Bool {
        deviceChanged || ownerBefore != ownerAfter || ownerRouteBefore != ownerRouteAfter
    }

    /// The session's route before and after, or `nil` when it did not change. `index` is
    /// `nil` for a group of sessions that own the route neither before nor after.
    func change(_ index: Int?, configBefore: RoutingConfig, configAfter: RoutingConfig) -> (before: Route, after: Route)? {
        let index = index ?? -1
        let before = Engine.currentRouteKey(
            index, owner: ownerBefore, ownerRoute: ownerRouteBefore, config: configBefore, ports: portsBefore)
        let after = Engine.currentRouteKey(
            index, owner: ownerAfter, ownerRoute: ownerRouteAfter, config: configAfter, ports: portsAfter)
        // Port lists differ after a plug or unplug: compare the ports themselves (type, UID).
        if !deviceChanged { return before == after ? nil : (before.route(on: portsBefore), after.route(on: portsAfter)) }
        let routes = (before: before.route(on: portsBefore), after: after.route(on: portsAfter))
        return routes.before == routes.after ? nil : routes
    }
}
