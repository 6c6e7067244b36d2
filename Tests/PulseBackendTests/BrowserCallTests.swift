import AudioSession
import AudioSessionWire
import Foundation
import Testing

/// §18 and PL5 with a real browser (issue 37): Debian's Chromium, headful under Xvfb as a desktop
/// runs it, on a private session bus and a headless PulseAudio with a microphone (a source of
/// its own, so its capture is a real PulseAudio source output), the daemon and the players
/// bridge; pages served from loopback (Tests/Browser: a music page, a WebRTC call that loops the
/// microphone back in the page).
@Suite("Calls and players in a real browser (§18, PL5)", .serialized)
struct BrowserCallTests {
    /// A browser on the desktop: Xvfb, a web server for Tests/Browser, Chromium (one process
    /// group, ended as a whole).
    final class Browser {
        let desktop: PlayersBridgeTests.Desktop
        let port: Int
        private var groups: [pid_t] = []

        init(_ desktop: PlayersBridgeTests.Desktop) throws {
            self.desktop = desktop
            // A display no other X server holds (a crashed run may have left its lock behind).
            let number = (90..<200).first { access("/tmp/.X\($0)-lock", F_OK) != 0 } ?? 199
            let display = ":\(number)"
            let www = desktop.server.directory + "/www"
            try FileManager.default.createDirectory(atPath: www, withIntermediateDirectories: true)
            let pages = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Browser")
            for page in ["music.html", "call.html"] {
                try FileManager.default.copyItem(atPath: pages.appendingPathComponent(page).path, toPath: "\(www)/\(page)")
            }
            try FileManager.default.copyItem(atPath: desktop.tone, toPath: "\(www)/tone.wav")
            port = 18_000 + Int(getpid() % 1000)
            groups.append(
                try desktop.spawn(["/usr/bin/setsid", "/usr/bin/Xvfb", display, "-nolisten", "tcp"], log: "xvfb.log"))
            groups.append(
                try desktop.spawn(
                    [
                        "/usr/bin/setsid", "/usr/bin/python3", "-m", "http.server", "--bind", "127.0.0.1", "--directory", www,
                        "\(port)",
                    ],
                    log: "www.log"))
            desktop.extraEnvironment["DISPLAY"] = display
            try desktop.server.pactl(["set-default-source", "mic"])  // the page's microphone: a real input
            guard eventually(within: 10, { access("/tmp/.X11-unix/X\(display.dropFirst())", F_OK) == 0 }) else {
                stop()
                throw PulseFixture.StartError(description: "Xvfb did not start: \(desktop.log("xvfb.log"))")
            }
        }

        /// Chromium showing these pages (each in a tab of one window), with its own profile.
        func chromium(_ pages: [String], profile: String = "profile") throws -> pid_t {
            let pid = try desktop.spawn(
                [
                    "/usr/bin/setsid", "/usr/bin/chromium", "--no-sandbox", "--disable-gpu", "--no-first-run",
                    "--user-data-dir=\(desktop.server.directory)/\(profile)", "--autoplay-policy=no-user-gesture-required",
                    "--use-fake-ui-for-media-stream",
                ] + pages.map { "http://127.0.0.1:\(port)/\($0)" }, log: "chromium-\(profile).log")
            groups.append(pid)
            return pid
        }

        /// Ends a program started here, with its children (Chromium's renderers and audio service).
        func end(_ group: pid_t) {
            // Only a group whose leader is still ours (see PulseFixture.end: pids come round again).
            var status: Int32 = 0
            let reaped = waitpid(group, &status, WNOHANG)
            if reaped == 0 || reaped == group { kill(-group, SIGKILL) }
            if reaped == 0 { waitpid(group, &status, 0) }
            groups.removeAll { $0 == group }
        }

        func stop() {
            for group in groups.reversed() { end(group) }
        }

        /// The MPRIS name of the browser's player, once it has one.
        func playerName() -> String? {
            (try? desktop.playerctl(["-l"]))?.split(separator: "\n").map(String.init).first { $0.hasPrefix("chromium") }
        }

        /// Whether some playback stream of the browser is muted on the server (nil: it has none).
        func anyStreamMuted() -> Bool? {
            guard let text = try? desktop.server.pactl(["list", "sink-inputs"]) else { return nil }
            let blocks = text.components(separatedBy: "Sink Input #").filter { $0.contains("application.name = \"Chromium\"") }
            return blocks.isEmpty ? nil : blocks.contains { $0.contains("Mute: yes") }
        }
    }

    @Test("PL5, CL3: a music page is paused by a call and played again at its end (Chromium's Seeked announcements)")
    func musicPausedByACall() throws {
        let desktop = try PlayersBridgeTests.Desktop(.pulseaudio)
        defer { desktop.stop() }
        let browser = try Browser(desktop)
        defer { browser.stop() }
        _ = try browser.chromium(["music.html"])
        var name: String?
        #expect(
            eventually(within: 30) {
                name = browser.playerName(); return name != nil
            }, "\(desktop.log("chromium-profile.log"))")
        guard let name else { return }
        #expect(eventually(within: 10) { desktop.status(name) == "Playing" })
        #expect(eventually { desktop.hasApp { $0.player != nil && $0.isActive } }, "governed: \(desktop.bridgeLog)")
        let caller = try desktop.spawn(
            [try CallTests.fakeCall(), "--source", "mic", "record", "2000", "quiet", "3500"], log: "call.log")
        defer { PulseFixture.end(caller) }
        #expect(eventually(within: 5) { desktop.status(name) == "Paused" }, "paused by the call: \(desktop.bridgeLog)")
        #expect(
            eventually(within: 8) { desktop.status(name) == "Playing" },
            "PL5: its Seeked on pause was an announcement: played again. \(desktop.bridgeLog)")
    }

    @Test(
        "CL2-CL5: a WebRTC call in a page (a real PulseAudio microphone) pauses mpv, is never muted; mpv plays again once the page is gone"
    )
    func webRTCCallPausesMPV() throws {
        let desktop = try PlayersBridgeTests.Desktop(.pulseaudio)
        defer { desktop.stop() }
        let browser = try Browser(desktop)
        defer { browser.stop() }
        let mpv = try desktop.mpv()
        #expect(eventually { desktop.hasApp { $0.player != nil && $0.isActive } }, "\(desktop.bridgeLog)")
        let chromium = try browser.chromium(["call.html"])
        #expect(
            eventually(within: 30) { CallTests.call(desktop)?.player == "Chromium" },
            "CL3: the page's call: \(desktop.daemonLog)\n\(desktop.log("chromium-profile.log"))")
        #expect(eventually(within: 5) { desktop.status(mpv.name) == "Paused" }, "mpv paused: \(desktop.bridgeLog)")
        var muted = false
        for _ in 0..<20 {
            if browser.anyStreamMuted() == true { muted = true }
            usleep(100_000)
        }
        #expect(!muted, "CL4: the call's playback was muted")
        browser.end(chromium)  // the page (and its browser) closed
        #expect(eventually(within: 6) { desktop.status(mpv.name) == "Playing" }, "PL4: mpv plays again: \(desktop.bridgeLog)")
    }

    @Test(
        "CL4: one browser with a music tab and a meeting tab — the call pauses the music through its player; the meeting is never muted, whatever the user does with the music"
    )
    func musicAndMeetingInOneBrowser() throws {
        let desktop = try PlayersBridgeTests.Desktop(.pulseaudio)
        defer { desktop.stop() }
        let browser = try Browser(desktop)
        defer { browser.stop() }
        _ = try browser.chromium(["music.html", "call.html"])
        #expect(
            eventually(within: 30) { CallTests.call(desktop)?.player == "Chromium" },
            "the meeting is a call: \(desktop.daemonLog)")
        var name: String?
        #expect(
            eventually(within: 10) {
                name = browser.playerName(); return name != nil
            }, "the music tab's player")
        guard let name else { return }
        #expect(
            eventually(within: 5) { desktop.status(name) == "Paused" }, "PL3: the call paused the music: \(desktop.bridgeLog)")
        func neverMuted(_ what: String) {
            var muted = false
            for _ in 0..<15 {
                if browser.anyStreamMuted() == true { muted = true }
                usleep(100_000)
            }
            #expect(!muted, "CL4: the meeting was muted \(what)")
        }
        neverMuted("once the call began")
        _ = try? desktop.playerctl(["-p", name, "play"])  // the user plays the music during the meeting
        #expect(eventually(within: 5) { desktop.status(name) == "Playing" })
        neverMuted("while the user played the music")
        _ = try? desktop.playerctl(["-p", name, "pause"])  // and pauses it again
        #expect(eventually(within: 5) { desktop.status(name) == "Paused" })
        neverMuted("after the user paused the music")
        #expect(CallTests.call(desktop) != nil, "the call goes on")
    }
}
