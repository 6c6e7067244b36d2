/// The routing owner and each session's current route (SPEC RT9–RT11).
extension Engine {
    /// RT9: the most recently activated active non-mixable app session, else the most recently
    /// activated active app session, else none. audioProcessing sessions never own (A8).
    var routingOwner: Int? {
        var fallback: Int?
        for index in activeSessions.reversed() {
            let session = sessions[index]
            guard session.takesPartInArbitration else { continue }
            if !session.isMixable { return index }
            if fallback == nil { fallback = index }
        }
        return fallback
    }

    /// The route a session's own configuration chooses (RT1–RT8).
    func ownRoute(_ index: Int?) -> RouteKey {
        guard let index else { return .none }
        return RouteSelection.route(for: sessions[index].routingConfig, on: device.ports)
    }

    /// RT10: the session's currentRoute, given the routing owner and the owner's route.
    func currentRouteKey(_ index: Int, owner: Int?, ownerRoute: RouteKey, config: RoutingConfig) -> RouteKey {
        let own = RouteSelection.route(for: config, on: device.ports)
        guard let owner, owner != index else { return own }
        return RouteSelection.shown(own: own, category: config.category, owner: ownerRoute)
    }

    func currentRouteKey(_ index: Int) -> RouteKey {
        let owner = routingOwner
        return currentRouteKey(index, owner: owner, ownerRoute: ownRoute(owner), config: sessions[index].routingConfig)
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
        let old = sessions[index].routingConfig
        context.touch(index, old)
        sessions[index].configure(category, mode, options)
        routeGroups.move(index, from: old, to: sessions[index].routingConfig)
    }

    /// RT11: sends `route-change` to every session whose current route changed in this step.
    mutating func sendRouteChanges(_ context: inout StepContext) {
        let ownerAfter = routingOwner
        let ownerRouteAfter = ownRoute(ownerAfter)
        var changes: [(index: Int, notification: SessionNotification)] = []

        // Sessions whose own route or ownership changed are compared one by one.
        var individuals = context.touched.map(\.index)
        for candidate in [context.ownerBefore, ownerAfter] {
            if let candidate, !individuals.contains(candidate) { individuals.append(candidate) }
        }
        for index in individuals {
            let configBefore = context.configBefore(index) ?? sessions[index].routingConfig
            let before = currentRouteKey(
                index, owner: context.ownerBefore, ownerRoute: context.ownerRouteBefore, config: configBefore)
            let after = currentRouteKey(
                index, owner: ownerAfter, ownerRoute: ownerRouteAfter, config: sessions[index].routingConfig)
            if before != after { changes.append((index, routeChange(index, before, after, context))) }
        }

        // Everyone else follows the owner: check once per group when the owner's route moved.
        if context.ownerBefore != ownerAfter || context.ownerRouteBefore != ownerRouteAfter {
            for group in routeGroups.groups {
                let own = RouteSelection.route(for: group.config, on: device.ports)
                let before =
                    context.ownerBefore == nil
                    ? own : RouteSelection.shown(own: own, category: group.config.category, owner: context.ownerRouteBefore)
                let after =
                    ownerAfter == nil
                    ? own : RouteSelection.shown(own: own, category: group.config.category, owner: ownerRouteAfter)
                guard before != after else { continue }
                for index in group.members where !individuals.contains(index) {
                    changes.append((index, routeChange(index, before, after, context)))
                }
            }
        }
        changes.sort { $0.index < $1.index }
        context.routeChanges.append(contentsOf: changes.map { .notify(sessions[$0.index].app, $0.notification) })
    }

    /// RT11: the one reason of a route change, the first that applies.
    private func routeChange(_ index: Int, _ before: RouteKey, _ after: RouteKey, _ context: StepContext)
        -> SessionNotification
    {
        let category = sessions[index].category
        let lostInput = category.hasInput && after.inputs == 0 && before.inputs != 0
        let lostOutput = category.hasOutput && after.outputs == 0 && before.outputs != 0
        let reason: RouteChangeReason =
            switch context.cause {
            case _ where lostInput || lostOutput: .noSuitableRouteForCategory
            case .other: .categoryChange
            }
        return .routeChange(
            reason: reason, previous: before.route(on: device.ports), current: after.route(on: device.ports))
    }
}
