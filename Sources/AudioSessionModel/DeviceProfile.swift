/// A device profile: its built-in ports and whether it has a silent switch (SPEC §9.1).
public struct DeviceProfile: Hashable, Sendable, CustomStringConvertible {
    package enum Kind: UInt8, CaseIterable, Sendable { case iphone, ipad, desktop, kiosk }

    package let kind: Kind

    package init(_ kind: Kind) { self.kind = kind }

    public static let iphone = DeviceProfile(.iphone)
    public static let ipad = DeviceProfile(.ipad)
    public static let desktop = DeviceProfile(.desktop)
    /// Beyond iOS: a device without built-in input (SPEC §9.1).
    public static let kiosk = DeviceProfile(.kiosk)

    public static let allCases: [DeviceProfile] = Kind.allCases.map(DeviceProfile.init)

    public var name: String {
        switch kind {
        case .iphone: "iphone"
        case .ipad: "ipad"
        case .desktop: "desktop"
        case .kiosk: "kiosk"
        }
    }

    public init?(name: String) {
        guard let match = Kind.allCases.first(where: { DeviceProfile($0).name == name }) else { return nil }
        self.kind = match
    }

    public var description: String { name }

    /// Only the iphone profile has a silent switch (D2).
    public var hasSilentSwitch: Bool { kind == .iphone }

    /// RT12: the built-in microphone's data sources (§9.1).
    package var microphoneDataSources: [String] {
        switch kind {
        case .iphone: ["Bottom", "Front", "Back"]
        case .ipad: ["Top", "Back"]
        case .desktop, .kiosk: []
        }
    }

    /// The built-in ports, outputs first (SPEC §9.1).
    public var builtInPorts: [Port] {
        var ports: [Port] = []
        if kind == .iphone { ports.append(Port(type: .receiver, uid: "built-in-receiver", name: "Receiver")) }
        ports.append(Port(type: .speaker, uid: "built-in-speaker", name: "Speaker"))
        if kind != .kiosk {
            ports.append(
                Port(
                    type: .microphoneBuiltIn, uid: "built-in-mic", name: "Built-In Microphone", dataSources: microphoneDataSources
                ))
        }
        return ports
    }
}
