import AudioSessionConfiguration
import AudioSessionDaemon
import AudioSessionModel
import AudioSessionRuntime
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The daemon's configuration file and app manifests (T1, T5): every key read, every mistake
/// named with its file and line, nothing half-applied.
@Suite("Configuration file")
struct ConfigurationFileTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A private directory for files the test writes (root's, mode 0755).
    final class Scratch {
        let path: String
        init() {
            var template = Array("/tmp/audiosession-config-XXXXXX".utf8CString)
            path = String(cString: mkdtemp(&template)!)
            chmod(path, 0o755)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }

        @discardableResult
        func write(_ name: String, _ text: String, mode: mode_t = 0o644) -> String {
            let file = path + "/" + name
            try? FileManager.default.createDirectory(
                atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: file, contents: Data(text.utf8))
            chmod(file, mode)
            return file
        }
    }

    @Test("The shipped example file gives the defaults, and uncommenting each key's line changes nothing")
    func exampleFileShowsTheDefaults() throws {
        let example = Self.root.appendingPathComponent("config/audiosessiond.yaml").path
        let text = try String(contentsOfFile: example, encoding: .utf8)
        #expect(try ConfigurationFile.parse(text, file: example) == DaemonSettings())
        // Every `# key: value` line of a top-level, limits or trust scalar, uncommented, is the default.
        let scalarKeys =
            ["permission-prompt", "log-level", "duck-level", "backend", "device"] + ConfigurationFile.limitKeys + ["mode"]
        var uncommented: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("# "), let key = trimmed.dropFirst(2).split(separator: ":").first,
                scalarKeys.contains(String(key))
            {
                uncommented.append(String(line.prefix { $0 == " " }) + trimmed.dropFirst(2))
            } else {
                uncommented.append(String(line))
            }
        }
        var expected = DaemonSettings()
        expected.device = DeviceProfile(name: "iphone")  // the default profile, now named
        #expect(try ConfigurationFile.parse(uncommented.joined(separator: "\n"), file: "uncommented") == expected)
        #expect(uncommented.filter { $0.contains("hello-timeout: 5") }.count == 1, "the limits were uncommented")
    }

    @Test("A system-mode file: users and groups by name or number, manifests read, limits set")
    func systemModeFile() throws {
        let scratch = Scratch()
        scratch.write("apps/radio.yaml", "app: com.example.radio\ncapabilities: [background-audio, now-playing]\n")
        scratch.write("apps/game.yml", "app: com.example.game\n")
        scratch.write("apps/README", "not a manifest")
        let file = scratch.write(
            "audiosessiond.yaml",
            """
            log-level: debug
            permission-prompt: deny
            limits:
              hello-timeout: 2.5
              max-connections-per-uid: 8
              queued-output: 65536
            trust:
              mode: system
              controllers: {users: [root, 1500], groups: [audio]}
              monitors:
                groups: 4242
              manifests: \(scratch.path)/apps
              app-start-state: background
            """)
        let settings = try ConfigurationFile.read(file)
        #expect(settings.logLevel == .debug && settings.permissionPrompt == .deny)
        #expect(
            settings.limits.helloTimeout == 2.5 && settings.limits.connectionsPerUID == 8 && settings.limits.queuedOutput == 65536
        )
        #expect(settings.limits.connections == DaemonLimits().connections)
        let trust = settings.trust
        #expect(trust.mode == .system && trust.appStartState == .background)
        #expect(trust.controllers.uids == [0, 1500] && trust.controllers.groups == [UInt32(getgrnam("audio").pointee.gr_gid)])
        #expect(trust.monitors.groups == [4242])
        #expect(trust.manifests["com.example.radio"]?.capabilities == [.backgroundAudio, .nowPlaying])
        #expect(trust.manifests["com.example.game"]?.capabilities == [])
        #expect(trust.manifests.count == 2)
        #expect(trust.mayControl(PeerCredentials(pid: 1, uid: 1500, gid: 1500)))
        #expect(!trust.mayControl(PeerCredentials(pid: 1, uid: 1501, gid: 1501)))
        #expect(trust.seesEveryApp(PeerCredentials(pid: 1, uid: 1502, gid: 1502, groups: [4242])))
    }

    @Test(
        "A mistake is named with its file, line and what was wrong",
        arguments: [
            ("limits:\n  helo-timeout: 3\n", "x.yaml:2: unknown key 'helo-timeout' in limits; known keys: hello-timeout"),
            ("log-level: loud\n", "x.yaml:1: log-level must be one of trace, debug"),
            ("duck-level: 1.5\n", "x.yaml:1: duck-level (D1) must be within 0.0…1.0, not 1.5"),
            ("limits:\n  max-connections: many\n", "x.yaml:2: limits.max-connections must be a whole number, not 'many'"),
            ("limits:\n  max-connections: 0\n", "x.yaml:2: limits.max-connections must be at least 1, not 0"),
            ("device: toaster\n", "x.yaml:1: device must be one of iphone, ipad, desktop, kiosk, not 'toaster'"),
            ("trust:\n  controllers:\n    users: [1]\n", "x.yaml:3: trust.controllers applies to the system trust mode only"),
            (
                "trust:\n  mode: system\n  controllers:\n    users: [no-such-user-here]\n",
                "x.yaml:4: trust.controllers.users: no user 'no-such-user-here'"
            ),
            (
                "trust:\n  mode: system\n  monitors:\n    groups: [root]\n",
                "x.yaml:4: trust.monitors.groups: group 0 cannot be listed"
            ),
            ("trust:\n  mode: kiosk\n", "x.yaml:2: trust.mode must be one of user, system, not 'kiosk'"),
            ("pulse-server: unix:/x\n", "x.yaml:1: pulse-server needs backend: pulse"),
            ("socket: /a\nsocket: /b\n", "x.yaml"),
            ("limits: [1\n", "x.yaml: not valid YAML"),
            ("- a\n- b\n", "x.yaml:1: the configuration must be a mapping"),
        ])
    func mistakesAreNamed(text: String, message: String) {
        #expect {
            try ConfigurationFile.parse(text, file: "x.yaml")
        } throws: { error in
            (error as? ConfigurationError)?.message.contains(message) == true
        }
    }

    @Test("Files the rules come from must not be changeable by others: mode, owner, symbolic links")
    func untrustedFilesAreRefused() throws {
        let scratch = Scratch()
        let open = scratch.write("open.yaml", "log-level: info\n", mode: 0o666)
        #expect(throws: ConfigurationError.self) { try ConfigurationFile.read(open) }
        let theirs = scratch.write("theirs.yaml", "log-level: info\n")
        chown(theirs, 1234, 1234)
        do {
            _ = try ConfigurationFile.read(theirs)
            Issue.record("a file of uid 1234 was read")
        } catch {
            #expect(error.message.contains("belongs to uid 1234"))
        }
        // A manifest of another user, one anyone may write, a linked one: each refused.
        for (name, prepare) in [
            ("owned", { (path: String) in chown(path, 1234, 1234) }), ("writable", { (path: String) in chmod(path, 0o666) }),
        ] as [(String, (String) -> Int32)] {
            let apps = scratch.path + "/apps-\(name)"
            let manifest = scratch.write("apps-\(name)/a.yaml", "app: a\n")
            _ = prepare(manifest)
            #expect(throws: ConfigurationError.self, "\(name)") { try ManifestDirectory.read(apps) }
        }
        let linked = scratch.path + "/apps-linked"
        symlink(scratch.path + "/apps-owned", linked)
        #expect(throws: ConfigurationError.self) { try ManifestDirectory.read(linked) }
        let shared = scratch.path + "/apps-shared"
        mkdir(shared, 0o777)
        chmod(shared, 0o777)
        #expect(throws: ConfigurationError.self) { try ManifestDirectory.read(shared) }
    }

    @Test("Manifests: a bad app id (T3), an unknown capability, an app given twice are named")
    func badManifests() throws {
        for (files, message) in [
            (["a.yaml": "app: com.evil app\n"], "app: an app id is made of"),
            (["a.yaml": "app: a\ncapabilities: [root]\n"], "'root' is not one"),
            (["a.yaml": "app: a\n", "b.yaml": "app: a\n"], "app a already has a manifest"),
            (["a.yaml": "capabilities: []\n"], "names no app"),
            (["a.yaml": "app: a\ncapability: [now-playing]\n"], "unknown key 'capability'"),
        ] {
            let scratch = Scratch()
            for (name, text) in files { scratch.write("apps/" + name, text) }
            do {
                _ = try ManifestDirectory.read(scratch.path + "/apps")
                Issue.record("accepted \(files)")
            } catch {
                #expect(error.message.contains(message), "\(error.message)")
            }
        }
    }

    @Test(
        "P4: permission-fallback read (granted, denied), the profile's by default (desktop granted, iphone denied), a typo named; in the summary"
    )
    func permissionFallback() throws {
        var settings = try ConfigurationFile.parse("permission-fallback: granted\n", file: "f.yaml")
        #expect(settings.permissionFallback == true && settings.rules.permissionFallback == true)
        settings = try ConfigurationFile.parse("device: desktop\n", file: "f.yaml")
        #expect(settings.permissionFallback == nil && settings.fallbackAnswer == true, "desktop: granted")
        settings = try ConfigurationFile.parse("device: iphone\n", file: "f.yaml")
        #expect(settings.fallbackAnswer == false, "iphone: denied")
        #expect(
            ConfigurationSummary(settings, file: "f.yaml").text.contains("permission-fallback: denied (the iphone profile's)"))
        do {
            _ = try ConfigurationFile.parse("permission-fallback: yes\n", file: "f.yaml")
            Issue.record("a typo accepted")
        } catch {
            #expect("\(error)".contains("permission-fallback must be one of granted, denied, not 'yes'"), "\(error)")
        }
    }
}
