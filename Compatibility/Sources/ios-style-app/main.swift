// Drives the iOS-style code above through the system controls (a call, headphones) and checks
// what its handlers saw. Embedded by default; against a daemon with AUDIOSESSION_SOCKET.
// Exit status 0 when every check passed.
import AVFoundation
import AudioSession
import Foundation
import MediaPlayer

var failures = 0
func check(_ condition: Bool, _ what: String) {
    print((condition ? "ok " : "not ok ") + what)
    if !condition { failures += 1 }
}

let system = try SystemController(transport: .fromEnvironment)
let session = AVAudioSession.sharedInstance()
/// Waits for every notification of the session: those posted on the main queue (N4: interruptions,
/// media services, the hint) are made when the main actor awaits, as an app's run loop would.
func settle() async {
    try? session.session.waitForPendingNotifications()
    let deadline = Date().addingTimeInterval(5)
    while session.session.hasPendingPosts, Date() < deadline { try? await Task.sleep(nanoseconds: 2_000_000) }
}

// A player is interrupted by a call and resumes when told (I1, I3, I4).
let player = Player()
try player.play()
check(player.isPlaying, "the player plays after setCategory(.playback) and setActive(true)")
try system.perform(.systemSession(.call, begin: true))
await settle()
check(player.log == ["began"] && !player.isPlaying, "a call interrupts it: interruption began (type as UInt)")

// A VoIP call during the phone call is refused with InsufficientPriority as an NSError (A3).
check(VoIPCall.start() == .busy, "a VoIP call during a phone call fails with ErrorCode.insufficientPriority")
try system.perform(.systemSession(.call, begin: false))
await settle()
check(player.log == ["began", "resumed"], "the call ends with shouldResume and the player resumes")

// Headphones come and go; the watcher pauses when the previous route had headphones (RT11).
let watcher = HeadphoneWatcher()
try system.perform(.plug(.headphones, uid: nil))
await settle()
check(watcher.headphonesConnected, "plugged headphones are the current route's output (portType == .headphones)")
try system.perform(.unplug(uid: "headphones-1"))
await settle()
check(watcher.pausedBecauseHeadphonesLeft, "oldDeviceUnavailable with headphones in AVAudioSessionRouteChangePreviousRouteKey")
check(watcher.reasons == [.newDeviceAvailable, .oldDeviceUnavailable], "route change reasons read back as UInt")

// The VoIP set-up succeeds now, with its preferences (HW3).
check(VoIPCall.start() == .started, "the VoIP call starts once the phone call is over")
check(session.category == .playAndRecord && session.mode == .voiceChat, "category and mode read back")
check(session.categoryOptions.contains(.defaultToSpeaker), "options read back")
check(session.preferredSampleRate == 16_000, "preferred sample rate read back")
try VoIPCall.end()

// Errors keep Apple's domain and codes.
do {
    try session.setCategory(.playback, mode: .voiceChat, options: [])
    check(false, "playback with voiceChat is refused")
} catch {
    let error = error as NSError
    check(
        error.domain == NSOSStatusErrorDomain && error.code == AVAudioSession.ErrorCode.badParam.rawValue,
        "an invalid mode is an NSError in NSOSStatusErrorDomain with code -50")
}

// Record permission, both styles (P2).
let oldWay = DispatchSemaphore(value: 0)
var oldAnswer = false
Permission.askTheOldWay { granted in
    oldAnswer = granted
    oldWay.signal()
}
check(oldWay.wait(timeout: .now() + 10) == .success && oldAnswer, "requestRecordPermission with a completion handler")
check(await Permission.askTheNewWay(), "AVAudioApplication.requestRecordPermission() async")
check(Permission.isGranted, "recordPermission reads granted on AVAudioApplication and AVAudioSession")

// A recorder prefers the built-in mic; plugging a USB microphone clears the preference and
// takes the input, as iOS does (RT8, revision 3).
try session.setCategory(.record)
if let builtIn = session.availableInputs?.first(where: { $0.portType == .builtInMic }) {
    try session.setPreferredInput(builtIn)
}
await settle()
check(session.preferredInput?.portType == .builtInMic, "setPreferredInput(built-in mic) reads back")
let reasonsBeforePlug = watcher.reasons.count
try system.perform(.plug(.usb, uid: nil))
await settle()
check(session.preferredInput == nil, "a plugged USB microphone clears preferredInput (nil)")
check(session.currentRoute.inputs.first?.portType == .usbAudio, "the USB microphone is the current route's input")
check(Array(watcher.reasons.dropFirst(reasonsBeforePlug)) == [.newDeviceAvailable], "the plug is told as newDeviceAvailable")
try system.perform(.unplug(uid: "usb-1"))
await settle()
check(session.preferredInput == nil, "the unplug does not restore the preference")

// Another app's audio hints that ours (a game's effects) should go quiet (OA3); media services
// reset (MS2). Observed the iOS way.
var hints: [AVAudioSession.SilenceSecondaryAudioHintType] = []
NotificationCenter.default.addObserver(
    forName: AVAudioSession.silenceSecondaryAudioHintNotification, object: session, queue: nil
) { notification in
    if let value = notification.userInfo?[AVAudioSessionSilenceSecondaryAudioHintTypeKey] as? UInt,
        let type = AVAudioSession.SilenceSecondaryAudioHintType(rawValue: value)
    {
        hints.append(type)
    }
}
var resets = 0
NotificationCenter.default.addObserver(forName: AVAudioSession.mediaServicesWereResetNotification, object: nil, queue: nil) { _ in
    resets += 1
}
try session.setCategory(.ambient)
try session.setActive(true)
let podcast = AudioSession(appID: "com.example.podcast", capabilities: .backgroundAudio, transport: .fromEnvironment)
try podcast.setCategory(.playback)
try podcast.setActive(true)
try podcast.reportOutputRunning(true)
await settle()
try podcast.reportOutputRunning(false)
try podcast.setActive(false)
await settle()
check(hints == [.begin, .end], "silence-secondary-audio hints begin then end, as UInt")
check(!session.secondaryAudioShouldBeSilencedHint, "the hint reads false again")
podcast.close()
try system.perform(.mediaServicesReset)
await settle()
check(resets == 1, "mediaServicesWereResetNotification once")
check(session.category == .soloAmbient, "the session is back to its defaults after the reset")

// Code the porting assistant fixed (`audiosession port --fix`; the iOS originals are in
// Tools/PortingAssistant/Corpus): selector observers became token observers held weakly.
var podcastPlayer: PodcastPlayer? = PodcastPlayer()
podcastPlayer?.play()
check(podcastPlayer?.isPlaying == true, "ported podcast player plays (long-form route sharing policy)")
let monitor = RouteMonitor()
let trackObserver = TrackObserver()  // observers registered in an extension
let episodeQueue = EpisodeQueue()  // observers registered in an extension in another file
try system.perform(.plug(.headphones, uid: "ported-headphones"))
await settle()
try system.perform(.unplug(uid: "ported-headphones"))
await settle()
check(monitor.routes.suffix(2) == ["Headphones", "Speaker"], "ported route monitor's closure observer saw both changes")
check(podcastPlayer?.log == ["paused: headphones gone"], "ported podcast player paused when the headphones left")
try system.perform(.systemSession(.call, begin: true))
await settle()
check(podcastPlayer?.log.last == "interrupted", "ported podcast player hears the interruption")
try system.perform(.systemSession(.call, begin: false))
await settle()
check(podcastPlayer?.isPlaying == true, "ported podcast player resumes when told")
check(
    trackObserver.routeChanges == 2, "ported observers of an extension heard both route changes (\(trackObserver.routeChanges))")
check(trackObserver.interruptions == 2, "and the call's begin and end (\(trackObserver.interruptions))")
check(episodeQueue.routeChecks == 2 && episodeQueue.pausedForInterruption == 2, "and those of one in another file")
trackObserver.stopObservingRoutes()  // removeObserver(self, name:object:) in the extension
episodeQueue.stopFollowingRoutes()  // the same, in the other file's extension
try system.perform(.plug(.headphones, uid: "ported-headphones"))
await settle()
try system.perform(.unplug(uid: "ported-headphones"))
await settle()
check(trackObserver.routeChanges == 2, "removing the route observer by name removed it: no handler ran again")
check(episodeQueue.routeChecks == 2, "removed by name across files too: no route handler ran again")
try system.perform(.systemSession(.call, begin: true))
await settle()
try system.perform(.systemSession(.call, begin: false))
await settle()
check(episodeQueue.pausedForInterruption == 4, "and exactly that observer: its interruption observer still hears")
weak var releasedPlayer = podcastPlayer
podcastPlayer = nil
check(releasedPlayer == nil, "a ported player is released: its observers hold it weakly and leave with it")
let callAudio = CallAudio()
callAudio.start()
check(callAudio.failures.isEmpty, "ported VoIP module starts (allowBluetoothHFP, preferences)")
try system.perform(.mediaServicesReset)
await settle()
check(callAudio.restarts == 1, "ported VoIP module restarts after a media-services reset")
callAudio.stop()

// Ported in round two (issue 29): a controller that sat behind `#if os(iOS)`, widened to Linux;
// NSValue reads of the interruption's numbers, made typed; a by-name removeObserver(self, …),
// made the removal of that notification's tokens.
let game = GameAudio()
try game.start()
check(game.musicPlaying, "ported game audio (it was behind #if os(iOS)) builds and starts on Linux")
let reader = InterruptionReader()
try system.perform(.systemSession(.call, begin: true))
await settle()
check(reader.events == ["began"] && game.interruptions == 1, "ported NSValue reader: the interruption's type read typed")
try system.perform(.systemSession(.call, begin: false))
await settle()
check(reader.events == ["began", "ended, resume"], "ported NSValue reader: ended with shouldResume read typed: \(reader.events)")
let nowPlaying = NowPlayingController()
try system.perform(.plug(.headphones, uid: "ported-named"))
await settle()
check(nowPlaying.log == ["route change"], "ported now-playing controller hears route changes")
nowPlaying.pause()
try system.perform(.unplug(uid: "ported-named"))
await settle()
try game.start()
try system.perform(.systemSession(.call, begin: true))
await settle()
check(
    nowPlaying.log == ["route change", "paused", "interruption"],
    "removeObserver(self, name:object:) ported: no route changes after it, interruptions still: \(nowPlaying.log)")
try system.perform(.systemSession(.call, begin: false))
await settle()
game.stop()

// `import Combine` (OpenCombine) and `import AVKit` build unchanged and behave (issue 29).
let model = SessionStateModel()
try session.setCategory(.playback)
try session.setActive(true)
try system.perform(.systemSession(.call, begin: true))
await settle()
check(model.isInterrupted, "Combine: a NotificationCenter publisher sets @Published isInterrupted on a call")
try system.perform(.systemSession(.call, begin: false))
await settle()
check(!model.isInterrupted, "Combine: … and clears it when the call ends")
try system.perform(.plug(.headphones, uid: "combine-headphones"))
await settle()
try system.perform(.unplug(uid: "combine-headphones"))
await settle()
check(
    model.routeChanges.suffix(2) == [.newDeviceAvailable, .oldDeviceUnavailable],
    "Combine: route changes through compactMap and sink")
check(model.changesAnnounced >= 4, "Combine: objectWillChange fires for each @Published change")
try session.setCategory(.playAndRecord, mode: .voiceChat)
try session.setActive(true)
await settle()
check(!SpeakerButton.isOnSpeaker, "AVKit: a voice chat starts on the receiver")
try SpeakerButton.toggle(on: true)
await settle()
check(SpeakerButton.isOnSpeaker, "AVKit: overrideOutputAudioPort(.speaker) through a file that imports AVKit")
try SpeakerButton.toggle(on: false)
try session.setActive(false)

// `import AVFoundation` alone brings Combine, as Apple's Foundation does; `import os` logs (issue 41).
let routes = RouteModel()
let before = routes.outputName
try system.perform(.plug(.headphones, uid: "model-headphones"))
await settle()
check(
    routes.outputName != before && !routes.outputName.isEmpty,
    "AVFoundation brings Combine: @Published follows a route change (\(before) -> \(routes.outputName))")
try system.perform(.unplug(uid: "model-headphones"))
await settle()
Diagnostics.sessionActivated(category: .playback, attempt: 2)

// A @MainActor class whose handler takes an NSNotification, with bridge attributes, as --fix
// leaves it (issue 41). Its observer runs on the main queue, in the class's isolation. This
// top-level code is itself on the main actor (it awaits): it lets the main queue run while a call
// begins and ends by awaiting, as an app's main-actor code does (never settle() meanwhile:
// Foundation's post waits until a main-queue observer has run).
/// Awaits until `done` or 5 s, the main queue free meanwhile; whether `done` came.
@MainActor func serveMainQueue(until done: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(5)
    while !done(), Date() < deadline { try? await Task.sleep(nanoseconds: 20_000_000) }
    return done()
}
var banner: InterruptionBanner? = InterruptionBanner()
let interruptionLog = InterruptionLog()
try session.setCategory(.playback)
try session.setActive(true)
try system.perform(.systemSession(.call, begin: true))
check(
    await serveMainQueue { banner?.interruptions == 1 } && banner?.message == "Paused for a call" && banner?.isVisible == true,
    "@MainActor and NSNotification, ported: the handler ran on the main queue with the interruption's type")
try system.perform(.systemSession(.call, begin: false))
check(
    await serveMainQueue { banner?.interruptions == 2 } && banner?.message == "Back",
    "@MainActor, ported: the interruption's end reached it too")
banner = nil  // its deinit (nonisolated) removes its observers
check(interruptionLog.entries == ["began", "ended"], "import AVFAudio alone brings Combine: \(interruptionLog.entries)")

try session.setActive(false)
await settle()

// MediaPlayer builds unchanged: Now Playing and remote commands (on a desktop, MPRIS; tested
// end to end with playerctl by the test command's MediaPlayerTests).
let episodes = EpisodePlayer()
episodes.play()
let published = MPNowPlayingInfoCenter.default().nowPlayingInfo
check(
    published?[MPMediaItemPropertyTitle] as? String == "Pilot"
        && published?[MPNowPlayingInfoPropertyPlaybackRate] as? Double == 1,
    "MediaPlayer: the podcast's Now Playing information is published")
check(MPRemoteCommandCenter.shared().nextTrackCommand.isEnabled, "MediaPlayer: its remote commands are set")
episodes.pause()
try session.setActive(false)

// `import MediaPlayer` alone brings AVFoundation and CoreMedia's CMTime, as on iOS (issue 50).
check(SkipControls.target(from: 100, by: 15, duration: 110).seconds == 110, "CMTime: a skip clamped to the track's end")
check(SkipControls.target(from: 10, by: -15, duration: 110) == .zero, "CMTime: a skip back clamped to zero")
try session.setCategory(.playback)
check(SkipControls.isPlaybackSession, "import MediaPlayer alone: AVAudioSession")

// AVAudioRecorder and AVAudioPlayer (SO2, SO3): a memo recorded from the microphone, then played
// back on a loop through a call; the player's delegate resumes it (on the main queue: awaited).
let memo = VoiceMemo()
let memoURL = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("memo-\(getpid()).caf")
try memo.record(to: memoURL, seconds: 0.5)
check(await serveMainQueue { memo.log.contains("recorded true") }, "AVAudioRecorder: the memo recorded for 0.5 s: \(memo.log)")
try memo.play(memoURL)
check(memo.player?.isPlaying == true && abs((memo.player?.duration ?? 0) - 0.5) < 0.01, "AVAudioPlayer plays the memo back")
try system.perform(.systemSession(.call, begin: true))
check(
    await serveMainQueue { memo.log.contains("player interrupted") } && memo.player?.isPlaying == false,
    "AVAudioPlayer: a call pauses it, audioPlayerBeginInterruption on the main queue")
try system.perform(.systemSession(.call, begin: false))
check(
    await serveMainQueue { memo.log.contains("player resumed") } && memo.player?.isPlaying == true,
    "AVAudioPlayer: EndInterruption with .shouldResume, and play() plays on: \(memo.log)")
try? await Task.sleep(nanoseconds: 300_000_000)  // a moment of playing, the main queue free
memo.updateLevel()
check(abs(memo.level - -12) < 1.5, "AVAudioPlayer metering: the memo's level, the microphone's −12 dBFS (\(memo.level))")
memo.player?.stop()
try? FileManager.default.removeItem(at: memoURL)
try session.setActive(false)

// AVAudioEngine (SPEC §20), as iOS apps write it, each handling interruptions as its real
// counterparts do. Both runs play and record on the simulated device (AUDIOSESSION_RENDER_DIR).
// A speech recognizer: the microphone tapped, converted to 16 kHz mono Int16; a call stops the
// engine, and its handler starts it again after.
let transcriber = SpeechTranscriber()
try transcriber.start()
check(await serveMainQueue { transcriber.samples.count > 8_000 }, "speech tap: the microphone converted to 16 kHz Int16")
let speechPeak = transcriber.samples.suffix(8_000).map { abs(Float($0) / 32_768) }.max() ?? 0
check(abs(speechPeak - 0.25) < 0.02, "speech tap: the microphone's tone at its level (\(speechPeak))")
try system.perform(.systemSession(.call, begin: true))
check(
    await serveMainQueue { transcriber.log.first == "interrupted, running false" },
    "speech tap: a call stops the engine (\(transcriber.log))")
let heardBeforeTheEnd = transcriber.samples.count
try system.perform(.systemSession(.call, begin: false))
check(await serveMainQueue { transcriber.log.contains("restarted") }, "speech tap: its handler starts the engine after the call")
check(await serveMainQueue { transcriber.samples.count > heardBeforeTheEnd + 8_000 }, "speech tap: it hears again")
transcriber.stop()

// A recorder: input → a silent mixer → a tap writing the file.
let recorder = EngineRecorder()
let recordingURL = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("engine-\(getpid()).caf")
try recorder.record(to: recordingURL)
try? await Task.sleep(nanoseconds: 500_000_000)  // half a second of recording, the main queue free
let recordedFrames = recorder.stop()
let recording = try AVAudioFile(forReading: recordingURL)
let recordingBuffer = AVAudioPCMBuffer(pcmFormat: recording.processingFormat, frameCapacity: AVAudioFrameCount(recording.length))!
try recording.read(into: recordingBuffer)
let recordingPeak = (0..<Int(recordingBuffer.frameLength)).map { abs(recordingBuffer.floatChannelData![0][$0]) }.max() ?? 0
check(
    recordedFrames > 12_000 && recording.length == recordedFrames && abs(recordingPeak - 0.25) < 0.01,
    "engine recorder: \(recordedFrames) frames of the microphone's tone in the file (peak \(recordingPeak))")
try? FileManager.default.removeItem(at: recordingURL)
try session.setActive(false)

// A podcast player: a file through TimePitch at 1.5×; a call pauses it, its end resumes it.
let episodeURL = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("episode-\(getpid()).caf")
do {
    let format = AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1)!
    let episode = try AVAudioFile(forWriting: episodeURL, settings: format.settings)
    let second = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 48_000)!
    second.frameLength = 48_000
    for frame in 0..<48_000 { second.floatChannelData![0][frame] = 0.25 * sin(2 * .pi * 440 * Float(frame) / 48_000) }
    for _ in 0..<3 { try episode.write(from: second) }
}
let podcastEngine = PodcastEngine()
try podcastEngine.play(episodeURL, rate: 1.5)
check(await serveMainQueue { podcastEngine.position > 0.3 }, "podcast engine: the episode plays through TimePitch")
try system.perform(.systemSession(.call, begin: true))
check(
    await serveMainQueue { podcastEngine.log == ["began"] } && !podcastEngine.engine.isRunning,
    "podcast engine: a call stops the engine (\(podcastEngine.log))")
try system.perform(.systemSession(.call, begin: false))
check(
    await serveMainQueue { podcastEngine.log == ["began", "resumed"] } && podcastEngine.engine.isRunning,
    "podcast engine: the end's shouldResume starts it again (\(podcastEngine.log))")
check(await serveMainQueue { podcastEngine.finished }, "podcast engine: the episode plays to its end")
podcastEngine.stop()
try? FileManager.default.removeItem(at: episodeURL)

// A synthesizer's source node, a metronome's looping buffer, a VoIP engine with voice processing.
let synthesizer = Synthesizer()
try synthesizer.start()
check(await serveMainQueue { synthesizer.renderedFrames > 9_600 }, "synthesizer: the source node renders")
synthesizer.stop()
let metronome = Metronome()
try metronome.start(bpm: 240)
check(metronome.engine.isRunning && metronome.player.isPlaying, "metronome: a looping beat plays")
try? await Task.sleep(nanoseconds: 300_000_000)
metronome.stop()
let voip = VoIPEngine()
try voip.start()
let packet = AVAudioPCMBuffer(pcmFormat: voip.engine.inputNode.outputFormat(forBus: 0), frameCapacity: 960)!
packet.frameLength = 960
voip.receive(packet)
check(await serveMainQueue { voip.framesSent > 4_800 }, "VoIP engine: the microphone is sent (\(voip.framesSent) frames)")
check(voip.log == ["voice processing true"], "VoIP engine: voice processing is on")
voip.end()

print(failures == 0 ? "all iOS-style checks passed" : "\(failures) iOS-style checks failed")
exit(failures == 0 ? 0 : 1)
