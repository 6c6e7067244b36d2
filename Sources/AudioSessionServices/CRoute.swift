import AudioSessionModel
import CAudioSessionServices

#if canImport(Glibc)
import Glibc
#endif

/// A UTF-8 C string the library owns, freed with its owner.
final class CString: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<CChar>

    init(_ text: String) { pointer = strdup(text)! }

    deinit { free(pointer) }
}

/// A route as the header's `AudioSessionRouteDescription`, with the port arrays and strings it
/// points at; all of it lives as long as this object.
final class CRoute: @unchecked Sendable {
    let description: UnsafeMutablePointer<AudioSessionRouteDescription>
    private let inputs: UnsafeMutableBufferPointer<AudioSessionPortDescription>
    private let outputs: UnsafeMutableBufferPointer<AudioSessionPortDescription>
    private let strings: [CString]

    init(_ route: Route) {
        var strings: [CString] = []
        func ports(_ ports: [Port]) -> UnsafeMutableBufferPointer<AudioSessionPortDescription> {
            let buffer = UnsafeMutableBufferPointer<AudioSessionPortDescription>.allocate(capacity: max(ports.count, 1))
            for (index, port) in ports.enumerated() {
                let type = CString(port.type.rawValue)
                let uid = CString(port.uid)
                let name = CString(port.name)
                strings += [type, uid, name]
                buffer[index] = AudioSessionPortDescription(
                    type: UnsafePointer(type.pointer), uid: UnsafePointer(uid.pointer), name: UnsafePointer(name.pointer))
            }
            return buffer
        }
        inputs = ports(route.inputs)
        outputs = ports(route.outputs)
        self.strings = strings
        description = .allocate(capacity: 1)
        description.initialize(
            to: AudioSessionRouteDescription(
                inputCount: UInt32(route.inputs.count), inputs: UnsafePointer(inputs.baseAddress),
                outputCount: UInt32(route.outputs.count), outputs: UnsafePointer(outputs.baseAddress)))
    }

    deinit {
        description.deallocate()
        inputs.deallocate()
        outputs.deallocate()
    }
}

extension Route {
    /// The legacy name `rout` reads (SPEC §14): the named combinations of the old API, else the
    /// route's port types joined with "And", "" with no route.
    var legacyName: String {
        let inputs = self.inputs.map(\.type)
        let outputs = self.outputs.map(\.type)
        switch (inputs, outputs) {
        case ([], []): return ""
        case ([.microphoneBuiltIn], [.receiver]): return "ReceiverAndMicrophone"
        case ([.microphoneBuiltIn], [.speaker]): return "SpeakerAndMicrophone"
        case ([.microphoneBuiltIn], [.headphones]): return "HeadphonesAndMicrophone"
        case ([.microphoneWired], [.headphones]): return "HeadsetInOut"
        case ([], [.headphones]): return "Headphone"
        case ([], [.speaker]): return "Speaker"
        case ([], [.lineOut]): return "LineOut"
        case ([.microphoneWired], []): return "Headset"
        default: return (inputs + outputs).map(\.rawValue).joined(separator: "And")
        }
    }
}
