import AudioSession
import AudioSessionRuntime
import Foundation
import Testing

/// P4: a record-permission request nobody can answer does not wait forever — with no system
/// controller connected, the profile's `permission-fallback` answers (desktop granted, others
/// denied), stored as any answer; a connected controller is still asked (P2). A desktop user sets
/// the fallback in `$XDG_CONFIG_HOME/audiosession/audiosessiond.yaml`, read when `--config` is not
/// given. (The desktop notification asked first: PermissionNotificationTests.)
@Suite("A permission request is always answered (P4)", .serialized)
struct PermissionFallbackTests {
    @Test(
        "P4 in the runtime: no controller connected, the fallback answers at once and the answer is stored (P1); a denying fallback denies"
    )
    func runtime() async throws {
        var configuration = Arbiter.Configuration(profile: .desktop, permissionPolicy: .ask)
        configuration.permissionFallback = true
        let arbiter = try Arbiter(configuration: configuration, logger: .quiet)
        let recorder = AudioSession(appID: "messenger", transport: .inProcess(arbiter))
        defer { recorder.close() }
        #expect(await recorder.requestRecordPermission(), "answered by the fallback")
        #expect(try recorder.status().recordPermission == .granted, "stored (P1)")

        var denying = Arbiter.Configuration(profile: .kiosk, permissionPolicy: .ask)
        denying.permissionFallback = false
        let car = try Arbiter(configuration: denying, logger: .quiet)
        let app = AudioSession(appID: "dictation", transport: .inProcess(car))
        defer { app.close() }
        #expect(await app.requestRecordPermission() == false, "the kiosk's fallback: denied")
    }

    /// A daemon with a user configuration file in XDG_CONFIG_HOME (or none); what a recorder's
    /// request gets with no controller connected.
    static func answer(userFile: String?) async throws -> Bool {
        let home = TemporaryDirectory()
        defer { home.remove() }
        if let userFile {
            try FileManager.default.createDirectory(atPath: home.path + "/audiosession", withIntermediateDirectories: true)
            try userFile.write(toFile: home.path + "/audiosession/audiosessiond.yaml", atomically: true, encoding: .utf8)
        }
        let daemon = try ChildDaemon.start(
            ["--log-level", "error"], shell: "XDG_CONFIG_HOME='\(home.path)' exec \"$0\" \"$@\"")
        defer { daemon.stop() }
        let recorder = AudioSession(appID: "messenger", transport: daemon.transport)
        defer { recorder.close() }
        return await recorder.requestRecordPermission()
    }

    @Test("P4 through a daemon: the iphone profile's fallback denies; the user's own file in XDG_CONFIG_HOME grants")
    func daemonAndUserFile() async throws {
        #expect(try await Self.answer(userFile: nil) == false, "iphone: denied, at once")
        #expect(try await Self.answer(userFile: "permission-fallback: granted\n") == true, "the user's file read")
    }
}
