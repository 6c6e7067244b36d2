// `import Combine` for iOS code on Linux, a porting aid (README "Porting iOS code"): Apple's
// Combine is not on Linux, and OpenCombine implements the same API — publishers and
// subscribers, `AnyCancellable`, `@Published` and `ObservableObject`, `PassthroughSubject` and
// `CurrentValueSubject`, the operators — and, outside Apple's systems, Foundation's and
// Dispatch's Combine spellings: `NotificationCenter.default.publisher(for:)`,
// `Timer.publish(every:on:in:)`, `DispatchQueue` and `RunLoop` as schedulers
// (`receive(on: DispatchQueue.main)`). This module re-exports it whole.
//
// Its limits are OpenCombine's (README "Porting iOS code"): no key-value-observing publishers
// (`session.publisher(for: \.outputVolume)`: observe the output volume through its notification
// instead), and no SwiftUI to bind `@Published` properties to; the module links Foundation's
// networking (OpenCombine's `dataTaskPublisher`), so keep it out of programs that count memory.
@_exported import OpenCombine
@_exported import OpenCombineDispatch
@_exported import OpenCombineFoundation
