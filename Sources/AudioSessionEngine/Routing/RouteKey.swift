import AudioSessionModel

/// A route as bit sets over the device's port list (bit i = `DeviceState.ports[i]`).
///
/// The port list is in connection order, so a bit set keeps route order (RT6) and a route
/// is compared and copied without allocating. At most 64 connected ports.
struct RouteKey: Hashable, Sendable {
    var inputs: UInt64 = 0
    var outputs: UInt64 = 0

    static let none = RouteKey()

    /// The ports of this route on the given port list.
    func route(on ports: PortTable) -> Route {
        Route(inputs: Self.ports(inputs, ports), outputs: Self.ports(outputs, ports))
    }

    private static func ports(_ bits: UInt64, _ ports: PortTable) -> [Port] {
        guard bits != 0 else { return [] }
        var result: [Port] = []
        var remaining = bits
        while remaining != 0 {
            let index = remaining.trailingZeroBitCount
            result.append(ports[index].port)
            remaining &= remaining - 1
        }
        return result
    }
}
