import AudioSessionModel

/// What route selection needs of a port, with no reference-counted fields, so that choosing a
/// route copies nothing but bytes.
struct PortSlot: Hashable, Sendable {
    let type: PortType
    let isInput: Bool
    /// The accessory the port belongs to (0 for built-ins); numbers are never reused.
    let accessory: UInt32
}

/// The connected ports in connection order (built-ins first), and their slots side by side.
struct PortTable: Hashable, Sendable {
    private(set) var ports: [DevicePort] = []
    private(set) var slots: [PortSlot] = []
    /// RT13 (a): the device-wide output choice (on a sound server, its default output), by UID;
    /// kept while its port is away, as a server keeps its configured default.
    private(set) var outputChoice: String?
    /// RT13 (a): the chosen output's position while it is connected.
    private(set) var outputChoiceSlot: Int?

    init(builtIns: [Port]) {
        append(builtIns.map { DevicePort(port: $0, isInput: $0.type == .microphoneBuiltIn) }, accessory: 0)
    }

    var count: Int { ports.count }

    subscript(index: Int) -> DevicePort { ports[index] }

    mutating func append(_ newPorts: [DevicePort], accessory: UInt32) {
        ports.append(contentsOf: newPorts)
        slots.append(contentsOf: newPorts.map { PortSlot(type: $0.port.type, isInput: $0.isInput, accessory: accessory) })
        locateOutputChoice()
    }

    /// RT13 (a): sets or clears the device-wide output choice.
    mutating func choose(output uid: String?) {
        outputChoice = uid
        locateOutputChoice()
    }

    private mutating func locateOutputChoice() {
        outputChoiceSlot = outputChoice.flatMap(outputSlot(uid:))
    }

    /// The connected output port with this UID, if any.
    func outputSlot(uid: String) -> Int? { ports.indices.first { !ports[$0].isInput && ports[$0].port.uid == uid } }

    /// A built-in port back in its place: after the other built-ins, before every accessory.
    mutating func insertBuiltIn(_ port: Port) {
        let position = slots.firstIndex { $0.accessory != 0 } ?? slots.count
        let devicePort = DevicePort(port: port, isInput: port.type == .microphoneBuiltIn)
        ports.insert(devicePort, at: position)
        slots.insert(PortSlot(type: port.type, isInput: devicePort.isInput, accessory: 0), at: position)
        locateOutputChoice()
    }

    mutating func removeAll(uid: String) {
        let kept = ports.indices.filter { ports[$0].port.uid != uid }
        ports = kept.map { ports[$0] }
        slots = kept.map { slots[$0] }
        locateOutputChoice()
    }

    /// Replaces a port's description (its data-source selection, RT12); type and direction stay.
    mutating func replacePort(at index: Int, with port: Port) {
        ports[index] = DevicePort(port: port, isInput: ports[index].isInput)
    }

    func isConnected(_ uid: String) -> Bool { ports.contains { $0.port.uid == uid } }

    /// The UID of an accessory's ports (the built-ins' UIDs differ; 0 is only ever an input's
    /// number for the built-in microphone).
    func inputUID(ofAccessory accessory: UInt32) -> String? {
        slots.indices.first { slots[$0].isInput && slots[$0].accessory == accessory }.map { ports[$0].port.uid }
    }
}
