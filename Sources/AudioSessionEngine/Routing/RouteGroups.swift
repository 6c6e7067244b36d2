import AudioSessionModel

/// Sessions grouped by routing configuration (RT10, RT11).
///
/// Every session that is not the routing owner shows a route that depends only on its own
/// configuration and the owner's route, so when the owner changes the new route is computed
/// once per group, and only the members of groups whose route changed are visited. This keeps
/// a step's cost growing with active sessions, not registered ones.
struct RouteGroups: Hashable, Sendable {
    struct Group: Hashable, Sendable {
        let config: RoutingConfig
        var members: Set<Int>
    }

    private(set) var groups: [Group] = []
    private var indexByConfig: [RoutingConfig: Int] = [:]

    mutating func insert(_ session: Int, _ config: RoutingConfig) {
        if let index = indexByConfig[config] {
            groups[index].members.insert(session)
        } else {
            indexByConfig[config] = groups.count
            groups.append(Group(config: config, members: [session]))
        }
    }

    mutating func remove(_ session: Int, _ config: RoutingConfig) {
        guard let index = indexByConfig[config] else { return }
        groups[index].members.remove(session)
        guard groups[index].members.isEmpty else { return }
        // Keep the array dense: move the last group into the hole.
        indexByConfig[config] = nil
        let last = groups.removeLast()
        if index < groups.count {
            groups[index] = last
            indexByConfig[last.config] = index
        }
    }

    mutating func move(_ session: Int, from old: RoutingConfig, to new: RoutingConfig) {
        guard old != new else { return }
        remove(session, old)
        insert(session, new)
    }
}
