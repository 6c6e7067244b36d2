// One tag table per wire enum, used by both directions: a case's tag is its raw value here
// (declaration order from 0) and is written nowhere else. docs/protocol.md lists them; a new
// case goes at the end of its table.

enum ClientMessageTag: UInt8, CaseIterable { case hello, request }
enum RoleTag: UInt8, CaseIterable { case app, controller, monitor }
enum ServerMessageTag: UInt8, CaseIterable { case welcome, reply, event, closing }
enum RequestTag: UInt8, CaseIterable {
    case call, status, ping, system, answerPermission, deviceStatus, subscribe, reset, setAppState
}
enum ReplyTag: UInt8, CaseIterable { case done, failed, status, device }
enum EventTag: UInt8, CaseIterable { case notification, outputGain, stopIO, observed, permissionPrompt }

enum NotificationTag: UInt8, CaseIterable {
    case interruptionBegan, interruptionEnded, routeChange, silenceSecondaryAudioHint, mediaServicesLost, mediaServicesReset
    case outputVolume, recordPermission
}

enum CallTag: UInt8, CaseIterable {
    case setCategory, setMode, setActive, startOutput, stopOutput, startInput, stopInput, setAppState
    case requestRecordPermission, overrideOutput, setPreferredInput, setInputDataSource, setPreferences, setInputGain
}

enum PreferenceTag: UInt8, CaseIterable { case sampleRate, ioBufferDuration, inputChannels, outputChannels }

enum SystemEventTag: UInt8, CaseIterable {
    case silentSwitch, lock, unlock, systemSession, microphoneMute, outputVolume, plug, unplug, wake, mediaServicesReset
    case inputGain, otherAudioStarted, otherAudioStopped, mediaServicesLost, outputChoice, appOutputChoice
}

extension WireWriter {
    mutating func write<Tag: RawRepresentable>(tag: Tag) where Tag.RawValue == UInt8 { write(tag.rawValue) }
}

extension WireReader {
    /// A tag of `Tag`'s table; any other byte is `unknownTag`, naming what was read.
    mutating func readTag<Tag: RawRepresentable>(_ field: String, as _: Tag.Type = Tag.self) throws(WireError) -> Tag
    where Tag.RawValue == UInt8 {
        let raw = try readUInt8(field)
        guard let tag = Tag(rawValue: raw) else { throw WireError(.unknownTag, "\(field): no case \(raw)") }
        return tag
    }
}
