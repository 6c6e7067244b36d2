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
        /// In increasing order, so a route change visits them in session order (RT11's
        /// notifications are sent in session order: already sorted, they sort in one pass).
        private(set) var members: [Int]

        init(config: RoutingConfig, members: [Int]) {
            self.config = config
            self.members = members.sorted()
        }

        /// Where `session` is or would go.
        private func position(_ session: Int) -> Int {
            var low = 0
            var high = members.count
            while low < high {
                let middle = (low + high) / 2
                if members[middle] < session { low = middle + 1 } else { high = middle }
            }
            return low
        }

        mutating func insert(_ session: Int) {
            let at = position(session)
            if at == members.count || members[at] != session { members.insert(session, at: at) }
        }

        mutating func remove(_ session: Int) {
            let at = position(session)
            if at < members.count, members[at] == session { members.remove(at: at) }
        }
    }

    private(set) var groups: [Group] = []
    private var indexByConfig: [RoutingConfig: Int] = [:]

    mutating func insert(_ session: Int, _ config: RoutingConfig) {
        if let index = indexByConfig[config] {
            groups[index].insert(session)
        } else {
            indexByConfig[config] = groups.count
            groups.append(Group(config: config, members: [session]))
        }
    }

    mutating func remove(_ session: Int, _ config: RoutingConfig) {
        guard let index = indexByConfig[config] else { return }
        groups[index].remove(session)
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
