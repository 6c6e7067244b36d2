import AudioSessionModel
import Scenarios

/// Renders a scenario report as a timeline a person can read: the file's own full-line
/// comments as narration, each step, and under it what each app was told.
enum Timeline {
    static func render(_ report: ScenarioReport, scenario: String) -> String {
        let lines = scenario.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var output: [String] = []
        var nextLine = 1
        var seen: [AppID: [String]] = [:]
        var order: [AppID] = []
        for result in report.results {
            // Narration: full-line comments between the previous step and this one.
            var inNarration = false
            for number in nextLine..<result.line {
                let text = lines[number - 1].drop { $0 == " " }
                guard text.hasPrefix("#") else {
                    inNarration = false
                    continue
                }
                if !inNarration { output.append("") }
                inNarration = true
                output.append(String(text.dropFirst().drop { $0 == " " }))
            }
            nextLine = result.line + 1
            let mark = result.passed ? " " : "✗"
            if result.text.hasPrefix("expect ") {
                output.append("  \(mark) check  \(result.text.dropFirst(7))")
            } else {
                output.append("  \(mark) step   \(result.text)")
            }
            if let failure = result.failure { output.append("             ✗ \(failure)") }
            for (app, notification) in result.events {
                output.append("             → \(app) is told: \(notification.scenarioText)")
                if seen[app] == nil { order.append(app) }
                seen[app, default: []].append(notification.scenarioText)
            }
        }
        output.append("")
        output.append("What each app saw:")
        for app in order {
            output.append("  \(app):")
            for event in seen[app] ?? [] { output.append("    \(event)") }
        }
        output.append("")
        output.append("\(report.summaryLine) (steps and checks)")
        return output.joined(separator: "\n")
    }
}
