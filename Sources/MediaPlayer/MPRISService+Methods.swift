import CSystemd
import Dispatch
import Foundation

/// The object's method calls: properties (Get, GetAll; Set for LoopStatus, Shuffle and Rate while
/// their commands are offered, refused otherwise), introspection, and the
/// player's methods — each answered at once; a command's handlers then run on the main queue.
extension MPRISService {
    static let handle: sd_bus_message_handler_t = { message, userdata, error in
        guard let message, let userdata else { return 0 }
        let service = Unmanaged<MPRISService>.fromOpaque(userdata).takeUnretainedValue()
        let interface = sd_bus_message_get_interface(message).map { String(cString: $0) } ?? ""
        let member = sd_bus_message_get_member(message).map { String(cString: $0) } ?? ""
        return service.call(interface, member, message, error)
    }

    private func call(
        _ interface: String, _ member: String, _ message: OpaquePointer, _ error: UnsafeMutablePointer<sd_bus_error>?
    )
        -> Int32
    {
        switch (interface, member) {
        case ("org.freedesktop.DBus.Properties", "Get"):
            guard let asked = message.readString(), let name = message.readString(),
                let value = properties(of: asked).first(where: { $0.0 == name })?.1
            else {
                sd_bus_error_set(error, "org.freedesktop.DBus.Error.UnknownProperty", "no such property")
                return -EINVAL
            }
            return reply(to: message) { reply in
                sd_bus_message_open_container(reply, CChar(UInt8(ascii: "v")), value.signature)
                Self.append(value, to: reply)
                sd_bus_message_close_container(reply)
            }
        case ("org.freedesktop.DBus.Properties", "GetAll"):
            let asked = message.readString() ?? ""
            return reply(to: message) { Self.append(.dictionary(properties(of: asked)), to: $0) }
        case ("org.freedesktop.DBus.Properties", "Set"):
            // LoopStatus, Shuffle and Rate reach their commands' handlers while the app offers them.
            guard let asked = message.readString(), asked == Self.playerInterface, let name = message.readString(),
                let command = setting(name, message)
            else {
                sd_bus_error_set(
                    error, "org.freedesktop.DBus.Error.PropertyReadOnly",
                    "read-only: the app offers no handler for it (its properties are its own)")
                return -EPERM
            }
            let result = reply(to: message) { _ in }
            DispatchQueue.main.async { command() }
            return result
        case ("org.freedesktop.DBus.Introspectable", "Introspect"):
            return reply(to: message) { Self.append(.string(Self.introspection(current.commands)), to: $0) }
        case (Self.rootInterface, "Raise"), (Self.rootInterface, "Quit"):
            return reply(to: message) { _ in }
        case (Self.playerInterface, _):
            guard let command = command(member, message) else { return 0 }
            let result = reply(to: message) { _ in }
            DispatchQueue.main.async { command() }
            return result
        default:
            return 0
        }
    }

    private func properties(of interface: String) -> [(String, BusValue)] {
        switch interface {
        case Self.playerInterface: current.playerProperties(now: Self.now)
        case Self.rootInterface: MPRISState.rootProperties(identity: identity)
        default: []
        }
    }

    /// What a player method does (nil: no such method).
    private func command(_ member: String, _ message: OpaquePointer) -> (@Sendable () -> Void)? {
        let center = MPRemoteCommandCenter.shared()
        let state = current
        let playing = state.playbackStatus == "Playing"
        func run(_ command: MPRemoteCommand) -> @Sendable () -> Void {
            { command.perform(MPRemoteCommandEvent(command: command)) }
        }
        /// The command itself, else the toggle (as the desktop's Play on a player that has only a toggle).
        func either(_ command: MPRemoteCommand, toggleWhen: Bool) -> @Sendable () -> Void {
            if command.isOffered { return run(command) }
            guard toggleWhen else { return {} }
            return run(center.togglePlayPauseCommand)
        }
        switch member {
        case "Play": return either(center.playCommand, toggleWhen: !playing)
        case "Pause": return either(center.pauseCommand, toggleWhen: playing)
        case "PlayPause":
            if center.togglePlayPauseCommand.isOffered { return run(center.togglePlayPauseCommand) }
            return playing ? run(center.pauseCommand) : run(center.playCommand)
        case "Stop":
            return center.stopCommand.isOffered ? run(center.stopCommand) : either(center.pauseCommand, toggleWhen: playing)
        case "Next": return run(center.nextTrackCommand)
        case "Previous": return run(center.previousTrackCommand)
        case "Seek":
            guard let offset = message.readInt64() else { return nil }
            let target = Double(state.position(now: Self.now) + offset) / 1_000_000
            return changePosition(to: max(0, target), center)
        case "SetPosition":
            guard message.readString("o") != nil, let position = message.readInt64() else { return nil }
            return changePosition(to: Double(position) / 1_000_000, center)
        case "OpenUri": return {}
        default: return nil
        }
    }

    /// What writing a property does (nil: not writable now — no such property, or its command
    /// not offered: disabled or without a handler).
    private func setting(_ name: String, _ message: OpaquePointer) -> (@Sendable () -> Void)? {
        let center = MPRemoteCommandCenter.shared()
        switch name {
        case "LoopStatus":
            let command = center.changeRepeatModeCommand
            guard command.isOffered, let text = message.readVariantString(),
                let type = MPRISState.repeatType(loopStatus: text)
            else { return nil }
            return { command.perform(MPChangeRepeatModeCommandEvent(command: command, repeatType: type)) }
        case "Shuffle":
            let command = center.changeShuffleModeCommand
            guard command.isOffered, let on = message.readVariantBool() else { return nil }
            return { command.perform(MPChangeShuffleModeCommandEvent(command: command, shuffleType: on ? .items : .off)) }
        case "Rate":
            let command = center.changePlaybackRateCommand
            guard command.isOffered, let rate = message.readVariantDouble(), rate > 0 else { return nil }
            return { command.perform(MPChangePlaybackRateCommandEvent(command: command, playbackRate: Float(rate))) }
        default:
            return nil
        }
    }

    private func changePosition(to seconds: Double, _ center: MPRemoteCommandCenter) -> @Sendable () -> Void {
        let command = center.changePlaybackPositionCommand
        return { command.perform(MPChangePlaybackPositionCommandEvent(command: command, positionTime: seconds)) }
    }

    private func reply(to message: OpaquePointer, _ body: (OpaquePointer) -> Void) -> Int32 {
        var reply: OpaquePointer?
        guard sd_bus_message_new_method_return(message, &reply) >= 0, let reply else { return -ENOMEM }
        defer { sd_bus_message_unref(reply) }
        body(reply)
        return sd_bus_send(nil, reply, nil) < 0 ? -EIO : 1
    }

    /// Appends a value (its own signature; a dictionary's values as variants).
    static func append(_ value: BusValue, to message: OpaquePointer) {
        func basic(_ type: Character, _ pointer: UnsafeRawPointer) {
            sd_bus_message_append_basic(message, CChar(type.asciiValue!), pointer)
        }
        switch value {
        case .string(let text): text.withCString { basic("s", $0) }
        case .objectPath(let path): path.withCString { basic("o", $0) }
        case .bool(let flag):
            var number: Int32 = flag ? 1 : 0
            basic("b", &number)
        case .int32(var number): basic("i", &number)
        case .int64(var number): basic("x", &number)
        case .double(var number): basic("d", &number)
        case .strings(let list):
            sd_bus_message_open_container(message, CChar(UInt8(ascii: "a")), "s")
            for text in list { text.withCString { basic("s", $0) } }
            sd_bus_message_close_container(message)
        case .dictionary(let entries):
            sd_bus_message_open_container(message, CChar(UInt8(ascii: "a")), "{sv}")
            for (key, entry) in entries {
                sd_bus_message_open_container(message, CChar(UInt8(ascii: "e")), "sv")
                key.withCString { basic("s", $0) }
                sd_bus_message_open_container(message, CChar(UInt8(ascii: "v")), entry.signature)
                append(entry, to: message)
                sd_bus_message_close_container(message)
                sd_bus_message_close_container(message)
            }
            sd_bus_message_close_container(message)
        }
    }

    /// The object's interfaces; LoopStatus, Shuffle and Rate `readwrite` while their commands are offered.
    static func introspection(_ commands: OfferedCommands) -> String {
        func access(_ offered: Bool) -> String { offered ? "readwrite" : "read" }
        let loop = commands.loop ? "<property name=\"LoopStatus\" type=\"s\" access=\"readwrite\"/>" : ""
        let shuffle = commands.shuffle ? "<property name=\"Shuffle\" type=\"b\" access=\"readwrite\"/>" : ""
        return introspectionTemplate.replacingOccurrences(
            of: "<property name=\"Rate\" type=\"d\" access=\"read\"/>",
            with: "<property name=\"Rate\" type=\"d\" access=\"\(access(commands.rate))\"/>" + loop + shuffle)
    }

    static let introspectionTemplate = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <node>
          <interface name="org.freedesktop.DBus.Introspectable"><method name="Introspect"><arg direction="out" type="s"/></method></interface>
          <interface name="org.freedesktop.DBus.Properties">
            <method name="Get"><arg direction="in" type="s"/><arg direction="in" type="s"/><arg direction="out" type="v"/></method>
            <method name="GetAll"><arg direction="in" type="s"/><arg direction="out" type="a{sv}"/></method>
            <method name="Set"><arg direction="in" type="s"/><arg direction="in" type="s"/><arg direction="in" type="v"/></method>
            <signal name="PropertiesChanged"><arg type="s"/><arg type="a{sv}"/><arg type="as"/></signal>
          </interface>
          <interface name="org.mpris.MediaPlayer2">
            <method name="Raise"/><method name="Quit"/>
            <property name="CanQuit" type="b" access="read"/><property name="CanRaise" type="b" access="read"/>
            <property name="HasTrackList" type="b" access="read"/><property name="Identity" type="s" access="read"/>
            <property name="SupportedUriSchemes" type="as" access="read"/><property name="SupportedMimeTypes" type="as" access="read"/>
          </interface>
          <interface name="org.mpris.MediaPlayer2.Player">
            <method name="Next"/><method name="Previous"/><method name="Pause"/><method name="PlayPause"/>
            <method name="Stop"/><method name="Play"/>
            <method name="Seek"><arg direction="in" type="x"/></method>
            <method name="SetPosition"><arg direction="in" type="o"/><arg direction="in" type="x"/></method>
            <method name="OpenUri"><arg direction="in" type="s"/></method>
            <signal name="Seeked"><arg type="x"/></signal>
            <property name="PlaybackStatus" type="s" access="read"/><property name="Rate" type="d" access="read"/>
            <property name="Metadata" type="a{sv}" access="read"/><property name="Volume" type="d" access="read"/>
            <property name="Position" type="x" access="read"/><property name="MinimumRate" type="d" access="read"/>
            <property name="MaximumRate" type="d" access="read"/><property name="CanGoNext" type="b" access="read"/>
            <property name="CanGoPrevious" type="b" access="read"/><property name="CanPlay" type="b" access="read"/>
            <property name="CanPause" type="b" access="read"/><property name="CanSeek" type="b" access="read"/>
            <property name="CanControl" type="b" access="read"/>
          </interface>
        </node>
        """
}

extension OpaquePointer {
    func readString(_ type: Character = "s") -> String? {
        var value: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(self, CChar(type.asciiValue!), &value) > 0, let value else { return nil }
        return String(cString: value)
    }

    func readInt64() -> Int64? {
        var value: Int64 = 0
        return sd_bus_message_read_basic(self, CChar(UInt8(ascii: "x")), &value) > 0 ? value : nil
    }

    /// A variant holding a string, a boolean or a double (a property's new value in `Set`).
    func readVariantString() -> String? {
        guard sd_bus_message_enter_container(self, CChar(UInt8(ascii: "v")), "s") > 0 else { return nil }
        return readString()
    }

    func readVariantBool() -> Bool? {
        var value: Int32 = 0
        guard sd_bus_message_enter_container(self, CChar(UInt8(ascii: "v")), "b") > 0,
            sd_bus_message_read_basic(self, CChar(UInt8(ascii: "b")), &value) > 0
        else { return nil }
        return value != 0
    }

    func readVariantDouble() -> Double? {
        var value: Double = 0
        guard sd_bus_message_enter_container(self, CChar(UInt8(ascii: "v")), "d") > 0,
            sd_bus_message_read_basic(self, CChar(UInt8(ascii: "d")), &value) > 0
        else { return nil }
        return value
    }
}
