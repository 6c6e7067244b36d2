import AudioSession
import AudioSessionDaemon
import AudioSessionWire
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Clients never hang (issue 18): a stopped or wedged daemon gives `msrv` within the timeout
/// (2 s by default, `AUDIOSESSION_TIMEOUT`), and a socket someone else made is not trusted.
@Suite("Clients never hang", .serialized)
struct ClientTimeoutTests {
    @Test("A stopped daemon: calls and `audiosession status` fail with msrv within the timeout; they work again after SIGCONT")
    func stoppedDaemon() throws {
        let daemon = try ChildDaemon.start()
        defer {
            kill(daemon.pid, SIGCONT)
            daemon.stop()
        }
        let music = AudioSession(appID: "music", transport: .daemon(socketPath: daemon.socket, timeout: 1))
        try music.setCategory(.playback)
        kill(daemon.pid, SIGSTOP)
        // Every thread of the daemon is stopped ('T' in /proc) before the call is made.
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.pid)/task")) ?? []
        for _ in 0..<500 {
            let states = threads.compactMap {
                try? String(contentsOfFile: "/proc/\(daemon.pid)/task/\($0)/stat", encoding: .utf8)
            }
            .map { $0[$0.index(after: $0.lastIndex(of: ")")!)...].split(separator: " ").first ?? "" }
            if states.allSatisfy({ $0 == "T" || $0 == "t" }) { break }
            usleep(2000)
        }
        let started = Date()
        #expect {
            _ = try music.status()
        } throws: { error in
            (error as? SessionError)?.code == .mediaServicesFailed
        }
        #expect(Date().timeIntervalSince(started) < 3)
        let cli = try ChildProcess(
            Package.executable("audiosession"), ["status", "--socket", daemon.socket], environment: ["AUDIOSESSION_TIMEOUT": "1"])
        let cliStarted = Date()
        cli.waitUntilExit()
        #expect(cli.process.terminationStatus != 0, "\(cli.output)")
        #expect(Date().timeIntervalSince(cliStarted) < 5)
        kill(daemon.pid, SIGCONT)
        #expect(try music.status().category == .playback)
        music.close()
    }

    @Test("A socket that accepts but never answers the hello: msrv within the timeout")
    func silentListener() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/socket"
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0 && listen(listener, 8) == 0)
        let started = Date()
        let app = AudioSession(appID: "music", transport: .daemon(socketPath: path, timeout: 0.5))
        #expect {
            try app.setCategory(.playback)
        } throws: { error in
            (error as? SessionError)?.message.contains("did not answer the hello within 0.5 s") == true
        }
        #expect(Date().timeIntervalSince(started) < 3)
        app.close()
    }

    @Test("A socket, or its directory, that belongs to another user (not root) is not trusted")
    func foreignSocketIsNotTrusted() throws {
        let daemon = try ChildDaemon.start()
        defer { daemon.stop() }
        let nobody: uid_t = 65_534
        for place in [daemon.socket, daemon.directory.path] {
            #expect(chown(place, nobody, gid_t(nobody)) == 0)
            let app = AudioSession(appID: "music", transport: daemon.transport)
            #expect {
                try app.setCategory(.playback)
            } throws: { error in
                (error as? SessionError)?.message.contains("belongs to uid 65534") == true
            }
            app.close()
            #expect(chown(place, 0, 0) == 0)
        }
        let trusted = AudioSession(appID: "music", transport: daemon.transport)
        try trusted.setCategory(.playback)
        trusted.close()
    }
}
