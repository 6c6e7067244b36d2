import Foundation

/// Latencies of one side of the benchmark, in nanoseconds.
struct Rounds {
    var name: String
    var samples: [UInt64] = []

    func quantile(_ q: Double) -> Double {
        let sorted = samples.sorted()
        return Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))]) / 1e6
    }

    var summary: String {
        String(
            format: "%@: p50 %.3f ms, p90 %.3f ms, max %.3f ms (%d rounds)", name, quantile(0.5), quantile(0.9), quantile(1),
            samples.count)
    }
}

/// Stops the benchmark with a reason.
func fail(_ reason: String) -> Never {
    FileHandle.standardError.write(Data("pulse-bench: \(reason)\n".utf8))
    exit(1)
}
