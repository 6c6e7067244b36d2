import AudioSessionEngine
import AudioSessionModel
import Workloads

// The benchmark workload as a plain loop, for profilers: `EngineProfile [STEPS] [REGISTERED]`.
let count = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 200_000
let registered = Int(CommandLine.arguments.dropFirst(2).first ?? "") ?? 10
var (engine, steps) = Workload.engine(registered: registered)
var effects = 0
for position in 0..<count {
    effects &+= engine.apply(steps[position % steps.count]).effects.count
}
print("\(count) steps, \(effects) effects")
