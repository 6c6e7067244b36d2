import CSystemd

#if canImport(Glibc)
import Glibc
#endif

/// The user's session bus through sd-bus, as the bridge needs it: method calls (blocking with a
/// bound, or answered later), signal matches, the loop's descriptor. Used from one thread only.
final class SessionBus {
    struct Failure: Error, CustomStringConvertible {
        var description: String
        /// The D-Bus error's name (`org.freedesktop.DBus.Error.UnknownObject`), when the peer answered one.
        var name: String? = nil

        /// PL6 (revision 5): the peer has no such object, interface, method or property (yet).
        var isNoSuchObject: Bool {
            guard let name else { return false }
            return ["UnknownObject", "UnknownInterface", "UnknownMethod", "UnknownProperty"].contains {
                name == "org.freedesktop.DBus.Error." + $0
            }
        }
    }

    let bus: OpaquePointer

    /// Connects to `DBUS_SESSION_BUS_ADDRESS` (else the user's bus).
    init() throws(Failure) {
        var bus: OpaquePointer?
        let result = sd_bus_open_user(&bus)
        guard result >= 0, let bus else { throw Failure(description: "cannot open the session bus: \(Self.text(result))") }
        self.bus = bus
    }

    deinit { sd_bus_flush_close_unref(bus) }

    static func text(_ errno: Int32) -> String { String(cString: strerror(-errno)) }

    /// A method call with string arguments.
    func message(
        _ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [String] = []
    )
        throws(Failure) -> OpaquePointer
    {
        var message: OpaquePointer?
        let result = sd_bus_message_new_method_call(bus, &message, destination, path, interface, member)
        guard result >= 0, let message else { throw Failure(description: "\(member): \(Self.text(result))") }
        for argument in arguments {
            let appended = argument.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
            guard appended >= 0 else {
                sd_bus_message_unref(message)
                throw Failure(description: "\(member): \(Self.text(appended))")
            }
        }
        return message
    }

    /// Calls and waits at most `timeout` seconds for the reply (which the caller unrefs).
    func call(
        _ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [String] = [],
        timeout: Double = 1
    ) throws(Failure) -> OpaquePointer {
        let message = try message(destination, path, interface, member, arguments)
        defer { sd_bus_message_unref(message) }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let result = sd_bus_call(bus, message, UInt64(timeout * 1_000_000), &error, &reply)
        guard result >= 0, let reply else {
            let text = error.message.map { String(cString: $0) } ?? Self.text(result)
            throw Failure(description: "\(member) of \(destination): \(text)", name: error.name.map { String(cString: $0) })
        }
        return reply
    }

    /// Calls the bus itself (`org.freedesktop.DBus`), waiting 1 s at most.
    func callBus(_ member: String, _ arguments: [String] = []) throws(Failure) -> OpaquePointer {
        try call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", member, arguments)
    }

    /// The bus's number answer about a connection (`GetConnectionUnixProcessID`, `…UnixUser`).
    func number(_ member: String, of connection: String) throws(Failure) -> UInt32 {
        let reply = try callBus(member, [connection])
        defer { sd_bus_message_unref(reply) }
        guard let value = reply.readUInt32() else { throw Failure(description: "\(member): not a number") }
        return value
    }

    /// A string property of an object (`org.freedesktop.DBus.Properties.Get`), nil when it is not one.
    func stringProperty(
        _ property: String, of destination: String, _ path: String, interface: String
    ) throws(Failure)
        -> String?
    {
        let reply = try call(destination, path, "org.freedesktop.DBus.Properties", "Get", [interface, property])
        defer { sd_bus_message_unref(reply) }
        guard sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "v")), "s") > 0 else { return nil }
        return reply.readString()
    }

    /// Calls without waiting; `done` gets the error text, or nil, when the reply comes (or in
    /// `timeout` seconds at most).
    func callLater(
        _ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [String] = [],
        timeout: Double = 1, done: @escaping (String?) -> Void
    ) {
        callLater(destination, path, interface, member, arguments, timeout: timeout) { _, error in done(error) }
    }

    /// Calls without waiting; `done` gets the reply (positioned at its start, valid during the
    /// call) or the error text when it comes (or in `timeout` seconds at most).
    func callLater(
        _ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [String] = [],
        timeout: Double = 1, reply done: @escaping (OpaquePointer?, String?) -> Void
    ) {
        let message: OpaquePointer
        do { message = try self.message(destination, path, interface, member, arguments) } catch {
            done(nil, error.description)
            return
        }
        defer { sd_bus_message_unref(message) }
        let box = Unmanaged.passRetained(Reply(done))
        let result = sd_bus_call_async(
            bus, nil, message,
            { reply, userdata, _ in
                let box = Unmanaged<Reply>.fromOpaque(userdata!).takeRetainedValue()
                if let reply, sd_bus_message_is_method_error(reply, nil) != 0 {
                    let error = sd_bus_message_get_error(reply)
                    box.done(nil, error?.pointee.message.map { String(cString: $0) } ?? "an error")
                } else {
                    box.done(reply, nil)
                }
                return 0
            }, box.toOpaque(), UInt64(timeout * 1_000_000))
        if result < 0 {
            box.release()
            done(nil, Self.text(result))
        }
    }

    final class Reply {
        let done: (OpaquePointer?, String?) -> Void
        init(_ done: @escaping (OpaquePointer?, String?) -> Void) { self.done = done }
    }

    /// Calls `handler` for each signal that matches (nil: any).
    func match(
        sender: String?, path: String?, interface: String, member: String, _ handler: sd_bus_message_handler_t,
        _ userdata: UnsafeMutableRawPointer
    ) throws(Failure) {
        let result = sd_bus_match_signal(bus, nil, sender, path, interface, member, handler, userdata)
        guard result >= 0 else { throw Failure(description: "cannot watch \(member): \(Self.text(result))") }
    }

    /// Handles what has arrived; false when the connection is gone.
    func process() -> Bool {
        while true {
            let result = sd_bus_process(bus, nil)
            if result < 0 { return false }
            if result == 0 { return true }
        }
    }

    var descriptor: Int32 { sd_bus_get_fd(bus) }
    var events: Int16 { Int16(truncatingIfNeeded: sd_bus_get_events(bus)) }

    /// Milliseconds until sd-bus needs to run again (a call's timeout), -1 for never.
    var timeoutMilliseconds: Int32 {
        var usec: UInt64 = 0
        guard sd_bus_get_timeout(bus, &usec) >= 0, usec != UInt64.max else { return -1 }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowUsec = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        return usec <= nowUsec ? 0 : Int32(min((usec - nowUsec + 999) / 1000, 60_000))
    }
}

/// Reading a message's values (sd-bus's `read_basic`: the readers Swift can call).
extension OpaquePointer {
    func readString(_ type: Character = "s") -> String? {
        var value: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(self, CChar(type.asciiValue!), &value) > 0, let value else { return nil }
        return String(cString: value)
    }

    func readUInt32() -> UInt32? {
        var value: UInt32 = 0
        return sd_bus_message_read_basic(self, CChar(UInt8(ascii: "u")), &value) > 0 ? value : nil
    }

    func readInt64() -> Int64? {
        var value: Int64 = 0
        return sd_bus_message_read_basic(self, CChar(UInt8(ascii: "x")), &value) > 0 ? value : nil
    }

    func readBool() -> Bool? {
        var value: Int32 = 0
        return sd_bus_message_read_basic(self, CChar(UInt8(ascii: "b")), &value) > 0 ? value != 0 : nil
    }

    /// `a{sv}`: calls `body` with each key, positioned on its variant's value (entered); a value
    /// `body` does not read is skipped.
    func readDictionary(_ body: (String, String) -> Void) -> Bool {
        guard sd_bus_message_enter_container(self, CChar(UInt8(ascii: "a")), "{sv}") > 0 else { return false }
        while sd_bus_message_enter_container(self, CChar(UInt8(ascii: "e")), "sv") > 0 {
            guard let key = readString() else { return false }
            var type: CChar = 0
            var contents: UnsafePointer<CChar>?
            guard sd_bus_message_peek_type(self, &type, &contents) > 0, let contents else { return false }
            let signature = String(cString: contents)
            guard sd_bus_message_enter_container(self, CChar(UInt8(ascii: "v")), contents) > 0 else { return false }
            body(key, signature)
            while sd_bus_message_at_end(self, 0) == 0 {
                guard sd_bus_message_skip(self, nil) >= 0 else { return false }
            }
            sd_bus_message_exit_container(self)  // v
            sd_bus_message_exit_container(self)  // e
        }
        sd_bus_message_exit_container(self)  // a
        return true
    }
}
