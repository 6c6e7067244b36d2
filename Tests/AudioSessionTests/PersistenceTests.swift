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

    @Test("A reset (audiosession run --socket) never loses real state: refused with a store or a real backend")
    func resetKeepsRealState() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try SettingsStore(directory: directory.path + "/state")
        let arbiter = try Arbiter(configuration: .init(store: store), logger: .quiet)
        let controller = try arbiter.connect(Hello(role: .controller), peer: .thisProcess, sink: NullSink()).get()
        let memo = try arbiter.connect(Hello(role: .app("memo", [])), peer: .thisProcess, sink: NullSink()).get()
        _ = arbiter.handle(.call(.requestRecordPermission), from: memo)
        _ = arbiter.handle(.answerPermission("memo", granted: true), from: controller)
        arbiter.disconnect(memo)
        guard case .failed(let error) = arbiter.handle(.reset(.desktop, duckLevel: 0.2), from: controller) else {
            Issue.record("a reset of a daemon with a state directory was accepted")
            return
        }
        #expect(error.message.contains("would replace settings kept in"))
        #expect(try store.load().recordPermissions == ["memo": .granted])

        struct RealDevice: AudioBackend { func carryOut(_ effects: [DeviceEffect]) {} }
        let governing = try Arbiter(configuration: .init(), logger: .quiet)
        governing.attach(RealDevice())
        let shell = try governing.connect(Hello(role: .controller), peer: .thisProcess, sink: NullSink()).get()
        guard case .failed(let refusal) = governing.handle(.reset(.desktop, duckLevel: 0.2), from: shell) else {
            Issue.record("a reset of a daemon on a real device was accepted")
            return
        }
        #expect(refusal.message.contains("sound server"))
        governing.attach(SimulatedDevice())
        #expect(governing.handle(.reset(.desktop, duckLevel: 0.2), from: shell) == .done)
    }

    @Test("A state directory anyone else could write is refused: open mode, another owner, a symbolic link")
    func stateDirectoryIsChecked() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let state = directory.path + "/state"
        _ = try SettingsStore(directory: state)
        chmod(state, 0o777)
        #expect(throws: StoreError.self) { try SettingsStore(directory: state) }
        do { _ = try SettingsStore(directory: state) } catch { #expect(error.message.contains("with mode 0777")) }
        chmod(state, 0o700)
        chown(state, 65_534, 65_534)
        do {
            _ = try SettingsStore(directory: state)
            Issue.record("a directory of another uid was accepted")
        } catch { #expect(error.message.contains("owned by uid 65534")) }
        chown(state, 0, 0)
        symlink(state, directory.path + "/link")
        do {
            _ = try SettingsStore(directory: directory.path + "/link")
            Issue.record("a symbolic link was accepted")
        } catch { #expect(error.message.contains("not a symbolic link")) }
        // A state.json that is a link is refused too.
        symlink("/etc/passwd", state + "/state.json")
        do {
            _ = try SettingsStore(directory: state)
            Issue.record("a linked state.json was accepted")
        } catch { #expect(error.message.contains("state.json must be a regular file")) }
    }

    @Test("A planted state.json.tmp link does not make the daemon write through it")
    func temporaryFileIsNeverFollowed() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let victim = directory.path + "/victim"
        try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
        let state = directory.path + "/state"
        let store = try SettingsStore(directory: state)
        symlink(victim, state + "/state.json.tmp")  // planted after the store was opened
        try store.save(DeviceSettings(outputVolume: 0.3))
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        #expect(try store.load().outputVolume == 0.3)
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
