import AudioSession
import AudioSessionMedia
import Foundation
import Synchronization
import Testing

/// The player on the simulated device: it renders what it plays, times the session's gain, to
/// one file per output port (issue 6).
@Suite("AudioPlayer on the simulated device", .serialized)
struct AudioPlayerTests {
    @Test func playsTheWholeFileToTheRoutesPortAndDucksWhenAnotherAppDucksOthers() throws {  // RT10, D1, D4
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let music = fixture.session("music")
        try music.setCategory(.playback)
        let player = try AudioPlayer(contentsOf: fixture.tone(seconds: 1.2), session: music, endpoint: fixture.endpoint)
        let log = EventLog()
        player.eventHandler = log.append
        try player.play()
        #expect(music.isActive)  // IO1: playing activates
        #expect(try music.status().isOutputRunning)
        #expect(eventually { player.currentTime > 0.4 })
        let navigation = fixture.session("navigation")
        try navigation.setCategory(.playback, options: [.mixWithOthers, .duckOthers])
        try navigation.setActive(true)
        #expect(log.saw(.finished))
        #expect(log.all == [.started, .finished])
        #expect(!player.isPlaying)
        #expect(!(try music.status().isOutputRunning))

        let rendered = try fixture.rendered("music", port: "built-in-speaker")
        #expect(rendered.frames == player.frames)  // every frame, once
        let head = rendered.samples[0..<9_600]  // the first 0.2 s
        let tail = rendered.samples[(rendered.samples.count - 9_600)...]
        #expect(abs(Level.dBFS(head) - 20 * log10(0.5)) < 0.1)
        // D1: the duck lands at 20·log10(0.2) ± 0.5 dB below the level before it.
        #expect(abs(Level.dBFS(tail) - Level.dBFS(head) - 20 * log10(0.2)) < 0.5)
    }

    @Test func pausesOnInterruptionAndResumesWhenToldTo() throws {  // I1, I3
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let music = fixture.session("music")
        try music.setCategory(.playback)
        let player = try AudioPlayer(contentsOf: fixture.tone(seconds: 3), session: music, endpoint: fixture.endpoint)
        let log = EventLog()
        player.eventHandler = log.append
        try player.play()
        #expect(eventually { player.currentTime > 0.1 })
        fixture.system(.systemSession(.call, begin: true))
        #expect(log.saw(.paused(.interruption)))
        #expect(!player.isPlaying)
        let pausedAt = player.currentTime
        Thread.sleep(forTimeInterval: 0.2)
        #expect(player.currentTime == pausedAt)  // nothing played during the call
        fixture.system(.systemSession(.call, begin: false))
        #expect(log.saw(.resumed))
        #expect(player.isPlaying)
        #expect(eventually { player.currentTime > pausedAt + 0.05 })

        // Without resumesAfterInterruption it stays paused.
        player.resumesAfterInterruption = false
        fixture.system(.systemSession(.call, begin: true))
        #expect(eventually { log.all.filter { $0 == .paused(.interruption) }.count == 2 })
        fixture.system(.systemSession(.call, begin: false))
        Thread.sleep(forTimeInterval: 0.2)
        #expect(!player.isPlaying)
        #expect(log.all.filter { $0 == .resumed }.count == 1)
        player.stop()

        // The rendered file has the sound without a gap or a repeat: as many frames as played.
        let rendered = try fixture.rendered("music", port: "built-in-speaker")
        #expect(abs(Double(rendered.frames) / 48_000 - pausedAt) < 1.5)
        #expect(rendered.frames > Int(pausedAt * 48_000))
    }

    @Test(
        "I1: an app's interruption handler added before the player was made finds it paused already (the player is a sound object: it hears first)"
    )
    func pausedBeforeTheAppHears() throws {
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let music = fixture.session("music")
        try music.setCategory(.playback)
        let seen = Mutex<[Bool]>([])  // isPlaying, read in the app's handler at each interruption
        let box = Mutex<AudioPlayer?>(nil)
        let token = music.addNotificationHandler { notification in
            guard case .interruptionBegan = notification, let player = box.withLock({ $0 }) else { return }
            let playing = player.isPlaying
            seen.withLock { $0.append(playing) }
        }
        defer { music.removeNotificationHandler(token) }
        let player = try AudioPlayer(contentsOf: fixture.tone(seconds: 3), session: music, endpoint: fixture.endpoint)
        box.withLock { $0 = player }
        try player.play()
        fixture.system(.systemSession(.call, begin: true))
        #expect(eventually { !seen.withLock { $0 }.isEmpty })
        #expect(seen.withLock { $0 } == [false], "isPlaying in the app's handler: \(seen.withLock { $0 })")
        fixture.system(.systemSession(.call, begin: false))
        player.stop()
    }

    @Test func pausesWhenTheHeadphonesGoUnlessToldNotTo() throws {  // RT11
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let music = fixture.session("music")
        try music.setCategory(.playback)
        fixture.system(.plug(.headphones, uid: "phones"))
        let player = try AudioPlayer(contentsOf: fixture.tone(seconds: 3), session: music, endpoint: fixture.endpoint)
        let log = EventLog()
        player.eventHandler = log.append
        try player.play()
        #expect(eventually { player.currentTime > 0.1 })
        fixture.system(.unplug(uid: "phones"))
        #expect(log.saw(.paused(.unplug)))
        #expect(!player.isPlaying)
        #expect(try fixture.rendered("music", port: "phones").frames > 0)

        // Not asked to pause: it plays on, on the speaker.
        fixture.system(.plug(.headphones, uid: "phones"))
        player.pausesOnUnplug = false
        try player.play()
        Thread.sleep(forTimeInterval: 0.1)
        fixture.system(.unplug(uid: "phones"))
        #expect(eventually { ((try? fixture.rendered("music", port: "built-in-speaker").frames) ?? 0) > 2_400 })
        #expect(player.isPlaying)
        #expect(log.all.filter { $0 == .paused(.unplug) }.count == 1)
        player.stop()
    }

    @Test func aRefusedActivationPlaysNothing() throws {  // A3, IO1
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        fixture.system(.systemSession(.call, begin: true))
        let music = fixture.session("music")
        try music.setCategory(.playback)
        let player = try AudioPlayer(contentsOf: fixture.tone(seconds: 1), session: music, endpoint: fixture.endpoint)
        #expect(throws: SessionError.self) { try player.play() }
        #expect(!player.isPlaying)
        #expect(!music.isActive)
        Thread.sleep(forTimeInterval: 0.05)
        #expect(!FileManager.default.fileExists(atPath: "\(fixture.directory)/music.built-in-speaker.wav"))
    }

    @Test func anUnreadableFileIsNamed() throws {
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let missing = "\(fixture.directory)/no-such.flac"
        #expect { try AudioPlayer(contentsOf: missing, session: fixture.session("music"), endpoint: fixture.endpoint) } throws: {
            error in
            (error as? MediaError)?.description.contains(missing) == true
        }
        let notSound = "\(fixture.directory)/notes.txt"
        try "not a sound".write(toFile: notSound, atomically: true, encoding: .utf8)
        #expect(throws: MediaError.self) {
            try AudioPlayer(contentsOf: notSound, session: fixture.session("music"), endpoint: fixture.endpoint)
        }
    }

    @Test func readsFlacAndOggThroughLibsndfile() throws {
        let fixture = try MediaFixture()
        defer { fixture.remove() }
        let tone = MediaFixture.sine(seconds: 0.25, amplitude: 0.5, sampleRate: 44_100)
        for (format, name) in [(SoundFile.Format.flac, "tone.flac"), (.oggVorbis, "tone.ogg")] {
            let path = "\(fixture.directory)/\(name)"
            try SoundFile.write(tone, to: path, format: format)
            let read = try SoundFile.read(path)
            #expect(read.sampleRate == 44_100 && read.channels == 1, "\(name)")
            #expect(abs(read.frames - tone.frames) < 2_048, "\(name)")
            #expect(abs(Level.dBFS(read.samples[...]) - 20 * log10(0.5)) < 0.5, "\(name)")
        }
    }
}
