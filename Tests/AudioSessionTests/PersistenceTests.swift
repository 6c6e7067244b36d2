import AudioSession
import AudioSessionDaemon
import AudioSessionRuntime
import AudioSessionWire
import Foundation
import Logging
import Testing

/// The state directory (P1, HW7) and the socket path checks of the daemon.
@Suite("Persistence and the socket path")
struct PersistenceTests {
    @Test("Record permissions and the volume survive a restart of the arbiter")
    func settingsSurviveARestart() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try SettingsStore(directory: directory.path + "/state")
        let first = try Arbiter(configuration: .init(store: store), logger: .quiet)
        let controller = try first.connect(Hello(role: .controller), peer: .thisProcess, sink: NullSink()).get()
        let memo = try first.connect(Hello(role: .app("memo", [])), peer: .thisProcess, sink: NullSink()).get()
        #expect(first.handle(.call(.requestRecordPermission), from: memo) == .done)
        #expect(first.handle(.answerPermission("memo", granted: true), from: controller) == .done)
        #expect(first.handle(.system(.outputVolume(0.4)), from: controller) == .done)

        let second = try Arbiter(configuration: .init(store: store), logger: .quiet)
        #expect(second.engine.settings == DeviceSettings(recordPermissions: ["memo": .granted], outputVolume: 0.4))
        let text = try String(contentsOfFile: store.file, encoding: .utf8)
        #expect(text.contains("\"memo\" : \"granted\""))
    }

    @Test("A store that is not valid is refused with the file and the fault named")
    func invalidStoreIsRefused() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try SettingsStore(directory: directory.path)
        try Data("{\"version\":1,\"outputVolume\":7,\"recordPermissions\":{}}".utf8).write(to: URL(fileURLWithPath: store.file))
        #expect(throws: StoreError.self) { try store.load() }
        do { _ = try store.load() } catch { #expect(error.message.contains("state.json: HW7")) }
        try Data("not json".utf8).write(to: URL(fileURLWithPath: store.file))
        do { _ = try store.load() } catch { #expect(error.message.contains("is not a valid state file")) }
        // A temporary file left by a write killed before its rename is ignored and removed.
        try store.save(DeviceSettings(outputVolume: 0.5))
        try Data("half a wri".utf8).write(to: URL(fileURLWithPath: directory.path + "/state.json.tmp"))
        let reopened = try SettingsStore(directory: directory.path)
        #expect(try reopened.load().outputVolume == 0.5)
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/state.json.tmp"))
    }

    @Test("A live socket is refused and its daemon left running; an open directory is refused")
    func socketPathChecks() async throws {
        let fixture = try await SocketFixture.start()
        #expect(throws: SocketPathError.self) { try SocketPath.prepare(fixture.socketPath) }
        do { try SocketPath.prepare(fixture.socketPath) } catch { #expect(error.message.contains("already listening")) }
        #expect(SocketPath.isListening(fixture.socketPath))  // the live daemon is untouched
        let stalePath = fixture.socketPath
        await fixture.server.stop()
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        chmod(directory.path, 0o755)
        do { try SocketPath.prepare(directory.path + "/socket") } catch {
            #expect(error.message.contains("has mode 755; it must be 700"))
        }
        #expect(throws: SocketPathError.self) { try SocketPath.prepare(directory.path + "/socket") }
        #expect(!SocketPath.isListening(stalePath))
        await fixture.stop()
    }
}
