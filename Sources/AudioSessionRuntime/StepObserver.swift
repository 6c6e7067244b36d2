import AudioSessionEngine
import AudioSessionModel

/// Follows the arbiter's steps from outside the engine: a sound-server backend that applies
/// each session's route, gain and running state to the app's own streams.
///
/// Called under the arbiter's lock after every step, with the step's effects (maybe none):
/// it must only enqueue, and read the engine (`Arbiter.engine`) later, from its own queue.
public protocol StepObserver: Sendable {
    func stepApplied(_ effects: [Effect])
}
