import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// A process's command name (`/proc/PID/comm`, without its newline): the program a permission
/// question names (P4) and the one a stream's process is matched by (the backend's CL2, SO1).
package enum ProcessName {
    /// Nil when the process is gone (or not given).
    package static func of(_ pid: Int32?) -> String? {
        guard let pid, pid > 0, let file = fopen("/proc/\(pid)/comm", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = fread(&buffer, 1, buffer.count, file)
        let name = buffer.prefix(count)
        return String(decoding: name.last == 10 ? name.dropLast() : name, as: UTF8.self)
    }
}

extension Duration {
    /// Whole milliseconds (for logs, status and the wire).
    package var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }

    /// As Dispatch's interval, to nanoseconds (a timer's deadline).
    package var dispatchInterval: DispatchTimeInterval {
        .nanoseconds(Int(components.seconds) * 1_000_000_000 + Int(components.attoseconds / 1_000_000_000))
    }
}
