import AudioSessionModel
import AudioSessionRuntime
import Foundation
import Testing

@testable import AudioSessionConfiguration

/// §17 POL1–POL4: the `policy:` table — read, checked as an app's setCategory would be, matched
/// first entry first, printed with its defaults; every mistake named with file and line.
@Suite("Device policy (§17)")
struct PolicyTests {
    static let car = """
        policy:
          streams:
            - match: {role: navigation}
              session: {category: playback, mode: voicePrompt, options: [mixWithOthers, duckOthers]}
            - match: {role: alarm}
              system: alarm
            - match: {role: event, application-name: "chime*"}
              other-audio: true
          players:
            - match: {identity: "VLC media player"}
              category: playback
              options: [mixWithOthers]
            - match: {bus-name: "chromium*"}
              ignore: true
          duck-level-by-role: {music: 0.1, speech: 0.4}
        """

    /// The table as `policy:` reads and checks it (before the gate of what is carried out yet).
    static func parse(_ text: String) throws(ConfigurationError) -> DevicePolicy {
        let fields = YAMLFields(file: "car.yaml")
        guard let root = try fields.document(text) else { return DevicePolicy() }
        let values = try fields.mapping(root, "the configuration", known: ["policy"])
        return try values["policy"].map { (node: YAMLNode) throws(ConfigurationError) in try PolicySection.read(node, fields) }
            ?? DevicePolicy()
    }

    @Test(
        "The shipped examples (config/examples: a car head unit, a desktop) are valid", arguments: ["car-head-unit", "desktop"])
    func shippedExamples(_ name: String) throws {
        let path = ConfigurationFileTests.root.appendingPathComponent("config/examples/\(name).yaml").path
        let settings = try ConfigurationFile.read(path)
        #expect(!settings.policy.streams.isEmpty)
    }

    @Test("The configuration file reads the whole table (streams with a session, players)")
    func wholeFile() throws {
        let settings = try ConfigurationFile.parse(Self.car, file: "car.yaml")
        #expect(settings.policy == (try Self.parse(Self.car)))
        #expect(settings.rules.policy.players.count == 2, "the arbiter's rules carry it")
    }

    @Test("POL1, POL2, POL3: a car's table is read in order, first match wins, defaults after it")
    func carTable() throws {
        let policy = try Self.parse(Self.car)
        #expect(policy.streams.count == 3 && policy.players.count == 2)
        let navigation = policy.action(for: StreamFacts(role: "navigation", binary: "navit"))
        guard case .session(let intent) = navigation.action else {
            Issue.record("navigation is \(navigation)")
            return
        }
        #expect(intent.mode == .voicePrompt && intent.options == [.mixWithOthers, .duckOthers])
        #expect(navigation.origin == "policy.streams[1] (car.yaml:3)")
        #expect(policy.action(for: StreamFacts(role: "alarm")).action == .system(.alarm))
        #expect(policy.action(for: StreamFacts(role: "event", applicationName: "chimes")).action == .otherAudio)
        #expect(policy.action(for: StreamFacts(role: "event", applicationName: "chimes")).origin.hasPrefix("policy.streams[3]"))
        // I4: role phone is a call by the built-in entry; a role nobody named is other audio.
        #expect(policy.action(for: StreamFacts(role: "phone")).action == .system(.call))
        #expect(policy.action(for: StreamFacts(role: "phone")).origin.hasPrefix("built-in"))
        #expect(policy.action(for: StreamFacts(role: "music")) == (.otherAudio, "default: other audio (§7)"))
        #expect(policy.action(for: StreamFacts()).action == .otherAudio, "a stream without a role")
        // Players.
        guard case .intent(let vlc) = policy.action(forPlayer: "VLC media player", busName: "vlc").action else {
            Issue.record("VLC has no intent")
            return
        }
        #expect(vlc.options == .mixWithOthers)
        #expect(policy.action(forPlayer: "Chromium", busName: "chromium.instance7").action == .ignore)
        #expect(policy.action(forPlayer: "mpv", busName: "mpv").action == .intent(.player), "PL1's default")
        // POL3.
        #expect(policy.duckLevel(forRole: "music") == 0.1 && policy.duckLevel(forRole: "speech") == 0.4)
        #expect(policy.duckLevel(forRole: "navigation") == nil && policy.duckLevel(forRole: nil) == nil)
    }

    @Test("POL2, POL3, POL5: roles match without regard to case (PipeWire's own clients say Navigation and Alarm)")
    func rolesIgnoreCase() throws {
        let policy = try Self.parse(Self.car.replacingOccurrences(of: "{music: 0.1", with: "{Music: 0.1"))
        guard case .session = policy.action(for: StreamFacts(role: "Navigation")).action else {
            Issue.record("PipeWire's Navigation did not match role navigation")
            return
        }
        #expect(policy.action(for: StreamFacts(role: "ALARM")).action == .system(.alarm))
        #expect(policy.action(for: StreamFacts(role: "Phone")).action == .system(.call), "the built-in entry too")
        #expect(policy.duckLevel(forRole: "music") == 0.1 && policy.duckLevel(forRole: "MUSIC") == 0.1)
        let written = try Self.parse("policy:\n  streams:\n    - match: {role: Navigation}\n      system: alarm\n")
        #expect(written.action(for: StreamFacts(role: "navigation")).action == .system(.alarm))
        let system = try ConfigurationFile.parse(
            "trust:\n  mode: system\n  system-session-roles: [phone, Alarm]\n", file: "t.yaml")
        #expect(system.trust.allowsSystemSession(forRole: "alarm") && system.trust.allowsSystemSession(forRole: "Alarm"))
    }

    @Test("POL2: an entry may take role phone from the built-in rule; --check-config says the built-in is never reached")
    func phoneOverridden() throws {
        let policy = try Self.parse("policy:\n  streams:\n    - match: {role: phone}\n      other-audio: true\n")
        #expect(policy.action(for: StreamFacts(role: "phone")).action == .otherAudio)
        var settings = DaemonSettings()
        settings.policy = policy
        #expect(
            ConfigurationSummary(settings, file: "car.yaml").text.contains(
                "role phone -> system call    built-in: role phone is a call (I4) (never reached: policy.streams[1] (car.yaml:3) matches first)"
            ))
    }

    @Test(
        "Bad input: each mistake names file:line and what is wrong",
        arguments: [
            (
                "policy:\n  streams:\n    - match: {role: nav}\n      session: {category: record}\n", "car.yaml:4",
                "category must be one of"
            ),
            ("policy:\n  streams:\n    - match: {role: nav}\n      session: {mode: voiceChat}\n", "car.yaml:4", "M1"),
            (
                "policy:\n  players:\n    - match: {identity: x}\n      category: soloAmbient\n      options: [mixWithOthers]\n",
                "car.yaml:3", "O1"
            ),
            ("policy:\n  players:\n    - match: {identity: x}\n      options: [allowBluetooth]\n", "car.yaml:4", "is not one of"),
            ("policy:\n  streams:\n    - match: {role: \"nav[\"}\n      system: alarm\n", "car.yaml:3", "never closed"),
            ("policy:\n  streams:\n    - match: {role: nav}\n      system: siri\n", "car.yaml:4", "call or alarm"),
            ("policy:\n  streams:\n    - match: {role: nav}\n", "car.yaml:3", "one of session:, system: or other-audio:"),
            ("policy:\n  streams:\n    - system: alarm\n", "car.yaml:3", "needs a match:"),
            ("policy:\n  streams:\n    - match: {rol: nav}\n      system: alarm\n", "car.yaml:3", "unknown key 'rol'"),
            (
                "policy:\n  streams:\n    - match: {role: \"nav*\"}\n      system: alarm\n    - match: {role: navigation, binary: x}\n      other-audio: true\n",
                "car.yaml:5", "policy.streams[2] never applies: policy.streams[1]"
            ),
            (
                "policy:\n  players:\n    - match: {}\n      ignore: true\n    - match: {identity: x}\n      category: playback\n",
                "car.yaml:5", "policy.players[2] never applies"
            ),
            (
                "policy:\n  players:\n    - match: {identity: x}\n      ignore: true\n      category: playback\n", "car.yaml:5",
                "has no intent"
            ),
            ("policy:\n  duck-level-by-role: {music: 2}\n", "car.yaml:2", "within 0.0…1.0"),
            ("policy:\n  polices: []\n", "car.yaml:2", "unknown key 'polices'"),
            ("policy:\n  other-audio: pause\n", "car.yaml:2", "OA5"),
            ("policy:\n  calls:\n    after: 300\n", "car.yaml:3", "unknown key 'after'"),
            ("policy:\n  calls:\n    after-ms: -5\n", "car.yaml:3", "after-ms (CL2) must be within"),
            ("policy:\n  calls:\n    hangover-ms: 86400000\n", "car.yaml:3", "hangover-ms (CL5) must be within"),
            ("policy:\n  calls:\n    hangover-ms: soon\n", "car.yaml:3", "whole number of milliseconds"),
            ("policy:\n  calls:\n    intent: {category: playback}\n", "car.yaml:3", "must be playAndRecord"),
            ("policy:\n  calls:\n    intent: {mode: moviePlayback}\n", "car.yaml:3", "M1"),
            ("policy:\n  calls:\n    system: alarm\n", "car.yaml:3", "system must be call"),
            ("policy:\n  calls:\n    detect: maybe\n", "car.yaml:3", "true or false"),
            (
                "policy:\n  players-pause-on-device-loss: sometimes\n", "car.yaml:2",
                "players-pause-on-device-loss must be true or false"
            ),
            (
                "policy:\n  calls:\n    programs:\n      - match: {binary: ardour}\n", "car.yaml:4",
                "one of intent:, system: call or ignore: true"
            ),
            (
                "policy:\n  calls:\n    programs:\n      - match: {binary: \"ardour*\"}\n        ignore: true\n      - match: {binary: ardour8}\n        ignore: true\n",
                "car.yaml:6", "policy.calls.programs[2] never applies"
            ),
        ])
    func badInput(_ text: String, _ place: String, _ problem: String) {
        do {
            _ = try Self.parse(text)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.message.contains(place) && error.message.contains(problem), "\(error.message)")
        }
    }

    @Test("OA5: policy.other-audio is mute (the default), duck or mix; --check-config says which")
    func otherAudioTreatment() throws {
        #expect(try Self.parse("policy:\n  streams: []\n").otherAudio == .mute)
        for treatment in OtherAudioTreatment.allCases {
            let policy = try Self.parse("policy:\n  other-audio: \(treatment)\n")
            #expect(policy.otherAudio == treatment)
            #expect(
                ConfigurationSummary.policy(policy, duckLevel: 0.2).contains {
                    $0.contains("non-mixable app session plays: \(treatment) (other-audio, OA5)")
                })
        }
    }

    @Test("PL8: policy.players-pause-on-device-loss is true by default; false turns it off; --check-config says which")
    func playersPauseOnDeviceLoss() throws {
        #expect(try Self.parse("policy:\n  streams: []\n").playersPauseOnDeviceLoss)
        let off = try Self.parse("policy:\n  players-pause-on-device-loss: false\n")
        #expect(!off.playersPauseOnDeviceLoss)
        #expect(ConfigurationSummary.policy(off, duckLevel: 0.2).contains { $0.contains("headphones go away: play on") })
    }

    @Test("CL6: policy.calls — detection, its times, the intent of a call, and entries by program")
    func calls() throws {
        let defaults = try Self.parse("policy:\n  streams: []\n").calls
        #expect(defaults.detect && defaults.afterMs == 500 && defaults.hangoverMs == 2000)
        #expect(defaults.action == .session(CallPolicy.voiceChat))
        let policy = try Self.parse(
            """
            policy:
              calls:
                after-ms: 300
                hangover-ms: 5000
                intent: {mode: videoChat}
                programs:
                  - match: {binary: "ardour*"}
                    ignore: true
                  - match: {application-name: "Linphone"}
                    system: call
            """
        ).calls
        #expect(policy.afterMs == 300 && policy.hangoverMs == 5000)
        #expect(policy.action == .session(try DevicePolicy.Intent(category: .playAndRecord, mode: .videoChat)))
        #expect(policy.action(for: StreamFacts(applicationName: "Ardour", binary: "ardour8")).action == .ignore)
        let linphone = policy.action(for: StreamFacts(applicationName: "Linphone", binary: "linphone"))
        #expect(
            linphone.action == .systemCall && linphone.origin.hasPrefix("policy.calls.programs[2] (car.yaml:"),
            "\(linphone.origin)")
        #expect(policy.action(for: StreamFacts(applicationName: "Chromium", binary: "chromium")).origin == "policy.calls (CL3)")
        #expect(try Self.parse("policy:\n  calls:\n    detect: false\n").calls.detect == false)
    }

    @Test("POL5: trust.system-session-roles, system mode only; phone by default")
    func systemSessionRoles() throws {
        let system = try ConfigurationFile.parse(
            "trust:\n  mode: system\n  system-session-roles: [phone, alarm]\n", file: "t.yaml")
        #expect(system.trust.systemSessionRoles == ["phone", "alarm"])
        #expect(system.trust.allowsSystemSession(forRole: "alarm") && !system.trust.allowsSystemSession(forRole: "music"))
        #expect(!system.trust.allowsSystemSession(forRole: nil))
        #expect(TrustPolicy(mode: .system).allowsSystemSession(forRole: "phone"))
        #expect(!TrustPolicy(mode: .system).allowsSystemSession(forRole: "alarm"))
        #expect(TrustPolicy.user.allowsSystemSession(forRole: "alarm"), "the user mode: the user's own business")
        #expect(throws: ConfigurationError.self) {
            try ConfigurationFile.parse("trust:\n  system-session-roles: [alarm]\n", file: "t.yaml")
        }
    }

    @Test("Glob: *, ?, sets, ranges, negation and escapes; what cannot be read is named")
    func globs() throws {
        #expect(try Glob("chromium*").matches("chromium.instance42"))
        #expect(try !Glob("chromium*").matches("xchromium"))
        #expect(try Glob("a?c").matches("abc") && !Glob("a?c").matches("ac"))
        #expect(try Glob("[a-c]x").matches("bx") && !Glob("[a-c]x").matches("dx"))
        #expect(try Glob("[!a-c]x").matches("dx") && !Glob("[!a-c]x").matches("ax"))
        #expect(try Glob("\\*").matches("*") && !Glob("\\*").matches("a"))
        #expect(try Glob("*").matches(""))
        for bad in ["[abc", "x\\", "[z-a]", "[]"] {
            #expect(throws: GlobError.self, "\(bad)") { try Glob(bad) }
        }
        #expect(try Glob("navigation").isCovered(by: Glob("nav*")))
        #expect(try !Glob("nav*").isCovered(by: Glob("navigation")))
    }

    @Test("POL4: --check-config's summary prints the table in order, the built-in and the defaults")
    func summary() throws {
        var settings = DaemonSettings()
        settings.policy = try Self.parse(Self.car)
        let text = ConfigurationSummary(settings, file: "car.yaml").text
        let expected = [
            "role navigation -> session playback/voicePrompt [duckOthers,mixWithOthers]    policy.streams[1] (car.yaml:3)",
            "role phone -> system call    built-in: role phone is a call (I4)",
            "any other stream -> other-audio    default (§7)",
            "identity VLC media player -> playback/default [mixWithOthers]    policy.players[1] (car.yaml:10)",
            "any other player -> playback/default [none]    default (PL1)",
            "duck levels: 0.2 (duck-level); by role: music 0.1, speech 0.4",
        ]
        for line in expected { #expect(text.contains(line), "\(line)\n\(text)") }
        let order = ["role navigation", "role alarm", "role event", "role phone", "any other stream"].map {
            text.range(of: $0)!.lowerBound
        }
        #expect(order == order.sorted())
    }
}
