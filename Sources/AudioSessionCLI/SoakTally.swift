/// What a soak counted: operations by kind, the errors it saw (the first ones word for word),
/// the invariant checks and the daemon's memory at three moments.
struct SoakTally {
    var operations = 0
    var connects = 0
    var activations = 0
    /// Activations refused as SPEC says they must be (A3 `!pri` during a call): not errors.
    var refusedActivations = 0
    var systemEvents = 0
    var notifications = 0
    var invariantChecks = 0
    private(set) var errorCount = 0
    private(set) var firstErrors: [String] = []
    /// Daemon RSS in KiB: before any app; after the warm-up and at the end, at rest (nothing in
    /// flight, every app connected).
    var rssStart: Int?
    var rssAfterWarmUp: Int?
    var rssEnd: Int?
    /// Daemon RSS in KiB at each tenth of the run, to tell a plateau from a leak.
    var rssSamples: [Int] = []

    mutating func error(_ text: String) {
        errorCount += 1
        if firstErrors.count < 20 { firstErrors.append(text) }
    }

    /// RSS growth from the warm-up to the end, in percent.
    var rssGrowth: Double? {
        guard let warm = rssAfterWarmUp, let end = rssEnd, warm > 0 else { return nil }
        return Double(end - warm) / Double(warm) * 100
    }

    func report(seconds: Double, tolerance: Double) -> String {
        func mib(_ kib: Int?) -> String { kib.map { decimal(Double($0) / 1024, places: 1) + " MiB" } ?? "unknown" }
        var lines = [
            "operations \(operations) (\(Int(Double(operations) / seconds))/s under load): connects \(connects), activations \(activations)"
                + " (refused by A3 during a call: \(refusedActivations)), system events \(systemEvents)",
            "notifications received \(notifications)",
            "invariant checks \(invariantChecks) during the run and after it",
            "daemon RSS: start \(mib(rssStart)), at rest after warm-up \(mib(rssAfterWarmUp)), at rest at the end \(mib(rssEnd))"
                + (rssGrowth.map {
                    " (\(decimal($0, places: 1, sign: true))% since warm-up; tolerance \(decimal(tolerance, places: 0))%)"
                } ?? ""),
            "daemon RSS under load, each tenth of the run (MiB): "
                + rssSamples.map { decimal(Double($0) / 1024, places: 1) }.joined(separator: " "),
            "errors \(errorCount)",
        ]
        lines += firstErrors.map { "  " + $0 }
        if errorCount > firstErrors.count { lines.append("  … and \(errorCount - firstErrors.count) more") }
        return lines.joined(separator: "\n")
    }
}

/// Why a soak could not run at all (as opposed to errors it counted while running).
struct SoakError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
