import AudioSessionEngine
import AudioSessionModel
import Workloads

// The benchmark workload as a plain loop, for profilers and for the steady state:
// `EngineProfile [STEPS] [REGISTERED]`. One pass over the workload first (what a fresh engine's
// first steps cost, timed on its own), then STEPS steps timed. Under callgrind, the difference of
// two run lengths' instruction counts divided by the difference of their steps is one step's cost.
let count = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 200_000
let registered = Int(CommandLine.arguments.dropFirst(2).first ?? "") ?? 10
var (engine, steps) = Workload.engine(registered: registered)
var effects = 0
let clock = ContinuousClock()
// The very first step alone: a copy of the engine's storage on its first mutation would show here.
let firstStep = clock.measure { effects &+= engine.apply(steps[0]).effects.count }
let firstPass = clock.measure {
    for step in steps.dropFirst() { effects &+= engine.apply(step).effects.count }
}
let steady = clock.measure {
    for position in 0..<count { effects &+= engine.apply(steps[position % steps.count]).effects.count }
}
func perSecond(_ steps: Int, _ duration: Duration) -> Int {
    let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    return Int(Double(steps) / seconds)
}
print(
    "\(count) steps, \(effects) effects, \(registered) registered: steady \(perSecond(count, steady)) steps/s;"
        + " a fresh engine's first step \(firstStep), its next \(steps.count - 1) \(perSecond(steps.count - 1, firstPass)) steps/s"
)
