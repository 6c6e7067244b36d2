// As Apple's MediaPlayer does, `import MediaPlayer` brings AVFoundation (and through it AVFAudio,
// CoreMedia and Foundation): a file that imports MediaPlayer alone uses AVAudioSession.
@_exported import AVFoundation
