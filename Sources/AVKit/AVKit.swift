// `import AVKit` for iOS code that imports it only for AVAudioSession (a porting aid, README
// "Porting iOS code"): AVFoundation's session API, re-exported. AVKit's own view controllers and
// views (AVPlayerViewController, AVRoutePickerView …) are user interface and stay out of scope:
// code that uses them does not build here, and says so at the name.
@_exported import AVFoundation
