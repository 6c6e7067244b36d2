import Glibc

/// Runs `body` on a new detached thread named `name` (the kernel keeps 15 bytes of it).
/// Foundation's `Thread` would bring CoreFoundation into every program that links the client.
func startDetachedThread(name: String, _ body: @escaping @Sendable () -> Void) {
    let start = Unmanaged.passRetained(ThreadStart(name: name, body: body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(
        &thread, nil,
        { argument in
            let start = Unmanaged<ThreadStart>.fromOpaque(argument!).takeRetainedValue()
            start.nameThisThread()
            start.body()
            return nil
        }, start)
    precondition(result == 0, "pthread_create failed: \(String(cString: strerror(result)))")
    pthread_detach(thread)
}

private final class ThreadStart: Sendable {
    let name: String
    let body: @Sendable () -> Void

    init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }

    /// Shown by `ps -L`, `top -H` and debuggers (Glibc's module has no pthread_setname_np).
    func nameThisThread() {
        let fd = open("/proc/thread-self/comm", O_WRONLY)
        guard fd >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}
