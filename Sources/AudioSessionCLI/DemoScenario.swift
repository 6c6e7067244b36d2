/// The scenario `audiosession demo` runs: a morning on a phone, told through what each app saw.
enum DemoScenario {
    static let text = """
        # A morning on the phone: music, directions, a podcast, a call and a voice memo.
        # Every app declares its intent; the arbiter decides and tells each app why.
        app music background-audio now-playing
        app maps background-audio
        app podcast background-audio
        app memo answers=grant
        app game
        app voip background-audio answers=grant

        # Music starts playing; starting output activates the session (IO1).
        music category playback
        music start-output
        expect music active=true gain=1 other-audio-playing=false

        # Directions speak over the music: the music is ducked, not stopped (D1).
        maps category playback mode=voicePrompt options=duckOthers
        maps start-output
        expect music gain=0.2
        expect maps other-audio-playing=true secondary-hint=true
        expect maps event silence-secondary-audio-hint begin
        maps stop-output
        maps deactivate notify-others
        expect music gain=1

        # A podcast app starts: it is not mixable, so it interrupts the music (A2, I1).
        podcast category playback mode=spokenAudio
        podcast start-output
        expect music event interruption began reason=default
        expect music active=false

        # A phone call interrupts the podcast; the music stays interrupted, now by the call (I2, I4).
        system call begin
        expect podcast event interruption began
        ! music activate !pri

        # The call ends: the apps it interrupted are told they may resume (I3).
        system call end
        expect podcast event interruption ended should-resume=true
        expect music event interruption ended should-resume=true
        podcast activate
        podcast start-output

        # A voice memo records. Record is not mixable, so it interrupts the podcast; the game's
        # ambient sounds mix, so they keep going but are silenced while it records (C11).
        # Starting input asks the user for the microphone (P3).
        game category ambient
        game start-output
        memo category record
        memo start-input
        expect podcast event interruption began
        expect memo event route-change reason=categoryChange previous=->Speaker current=MicrophoneBuiltIn>-
        expect memo event record-permission granted
        expect game active=true gain=0
        memo stop-input
        memo deactivate notify-others
        expect podcast event interruption ended should-resume=true
        expect game gain=1

        # The music app, now in the background, takes over again: as the now-playing app it
        # may interrupt from the background (A4).
        podcast activate
        music background
        music activate
        expect podcast event interruption began
        expect music active=true

        # Headphones: the music follows the last device plugged in (RT3). Unplugged, it goes
        # back to the speaker and the app is told why, with the previous route (RT11); it is
        # not interrupted (I8).
        music start-output
        system plug headphones
        expect music event route-change reason=newDeviceAvailable previous=->Speaker current=->Headphones
        system unplug headphones-1
        expect music event route-change reason=oldDeviceUnavailable previous=->Headphones current=->Speaker
        expect music active=true

        # A VoIP call in an app: playAndRecord on the receiver and the built-in mic; the music
        # is interrupted, and every app follows the call's route (RT9, RT10).
        voip category playAndRecord mode=voiceChat
        voip start-input
        voip start-output
        expect voip route=MicrophoneBuiltIn>Receiver sample-rate=48000
        expect music event interruption began
        expect music event route-change reason=categoryChange previous=->Speaker current=->Receiver
        # The speaker button (RT7): output to the speaker until the route changes.
        voip override speaker
        expect voip route=MicrophoneBuiltIn>Speaker
        expect music event route-change reason=categoryChange previous=->Receiver current=->Speaker
        voip stop-input
        voip stop-output
        voip deactivate notify-others
        expect music event interruption ended should-resume=true
        """
}
