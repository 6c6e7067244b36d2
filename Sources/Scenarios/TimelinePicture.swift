import AudioSessionModel

/// A scenario run drawn as swimlanes (SVG): one lane for the system and one per app, a column
/// per step. Each app's lane shows when its session was active, interrupted (began → ended, with
/// whether it should resume), ducked or muted (with the gain), its route changes (reason, route
/// before and after, in the tooltip) and its other notifications; a failed step is a red column
/// with its error, and a failed expectation is outlined in its app's lane. Deterministic: the
/// same report gives the same bytes. The report must come from a runner that records states.
public enum TimelinePicture {
    static let labelWidth = 170
    static let stepWidth = 26
    static let titleHeight = 34
    static let stepLabelHeight = 170
    static let laneHeight = 64
    static let legendHeight = 56

    public static func svg(_ report: ScenarioReport, title: String) -> String {
        var canvas = Canvas()
        let steps = report.results
        let lanes = ["system"] + report.apps.map(\.rawValue)
        let width = labelWidth + max(steps.count, 1) * stepWidth + 140  // room for the last rotated labels
        let lanesTop = titleHeight + stepLabelHeight
        let height = lanesTop + lanes.count * laneHeight + legendHeight
        canvas.open(width: width, height: height)
        canvas.text(
            x: 10, y: 22, "\(title) — \(report.summaryLine)", size: 15, weight: "bold",
            fill: report.failed > 0 ? Color.failed : Color.ink)

        // Step labels, rotated, and the grid.
        for (index, step) in steps.enumerated() {
            let x = column(index)
            canvas.line(x1: x, y1: lanesTop, x2: x, y2: lanesTop + lanes.count * laneHeight, stroke: Color.grid)
            let label = "\(step.line) \(step.text)"
            canvas.rotatedText(
                x: x + stepWidth / 2 + 4, y: lanesTop - 6, Self.truncated(label, to: 34), size: 10,
                fill: step.passed ? Color.ink : Color.failed, tooltip: step.outputLine)
        }
        for (lane, name) in lanes.enumerated() {
            let top = lanesTop + lane * laneHeight
            canvas.rect(
                x: 0, y: top, width: width, height: laneHeight, fill: lane % 2 == 0 ? Color.laneEven : Color.laneOdd, tooltip: nil
            )
            canvas.text(
                x: 10, y: top + laneHeight / 2 + 5, Self.truncated(name, to: 22), size: 13, weight: "bold", fill: Color.ink)
        }

        // Failed steps: a red column across every lane.
        for (index, step) in steps.enumerated() where !step.passed {
            canvas.rect(
                x: column(index), y: lanesTop, width: stepWidth, height: lanes.count * laneHeight, fill: Color.failedBand,
                tooltip: step.outputLine)
            canvas.text(x: column(index) + 8, y: lanesTop + 14, "✗", size: 13, weight: "bold", fill: Color.failed)
        }

        drawSystemLane(&canvas, steps, top: lanesTop)
        for (position, app) in report.apps.enumerated() {
            drawAppLane(&canvas, app, steps, top: lanesTop + (position + 1) * laneHeight)
        }
        drawLegend(&canvas, y: lanesTop + lanes.count * laneHeight + 20)
        canvas.close()
        return canvas.text
    }

    static func column(_ index: Int) -> Int { labelWidth + index * stepWidth }

    /// System steps (calls, plugs, locks …) as markers with their words.
    static func drawSystemLane(_ canvas: inout Canvas, _ steps: [StepResult], top: Int) {
        for (index, step) in steps.enumerated() {
            let words = step.text.split(separator: " ")
            guard words.first == "system" || (words.first == "!" && words.dropFirst().first == "system") else { continue }
            let event = words.drop { $0 == "!" || $0 == "system" }.joined(separator: " ")
            let x = column(index) + stepWidth / 2
            canvas.circle(cx: x, cy: top + 14, r: 5, fill: Color.system, tooltip: step.text)
            canvas.rotatedText(
                x: x + 4, y: top + laneHeight - 4, Self.truncated(event, to: 14), size: 9, fill: Color.system, tooltip: nil)
        }
    }

    /// One app: spans of its state, then markers for what it was told.
    static func drawAppLane(_ canvas: inout Canvas, _ app: AppID, _ steps: [StepResult], top: Int) {
        let states = steps.map { step in step.states.first { $0.app == app }?.status }
        // Active and interrupted spans (the session after each step).
        spans(states.map { $0?.isActive == true ? "active" : ($0?.isInterrupted == true ? "interrupted" : nil) }) {
            kind, start, end in
            let interrupted = kind == "interrupted"
            canvas.rect(
                x: column(start), y: top + 8, width: (end - start) * stepWidth, height: 16,
                fill: interrupted ? Color.interrupted : Color.active,
                tooltip: "\(app) \(kind) after steps \(steps[start].line)–\(steps[end - 1].line)")
            if (end - start) * stepWidth >= 60 {
                canvas.text(x: column(start) + 4, y: top + 20, kind, size: 10, weight: "normal", fill: Color.onBand)
            }
        }
        // Ducked and muted spans, with the gain (D1–D5).
        spans(
            states.map { status -> String? in
                guard let gain = status?.outputGain, gain < 1 else { return nil }
                return gain == 0 ? "muted" : "ducked \(Self.number(gain))"
            }
        ) { kind, start, end in
            canvas.rect(
                x: column(start), y: top + 28, width: (end - start) * stepWidth, height: 10,
                fill: kind == "muted" ? Color.muted : Color.ducked,
                tooltip: "\(app) \(kind) after steps \(steps[start].line)–\(steps[end - 1].line)")
            canvas.text(
                x: column(start) + 3, y: top + 48, kind, size: 9, weight: "normal",
                fill: kind == "muted" ? Color.muted : Color.ducked)
        }
        // What the app was told, in the column of the step that told it.
        for (index, step) in steps.enumerated() {
            let told = step.events.filter { $0.app == app }.map(\.notification)
            let x = column(index) + stepWidth / 2
            for notification in told { drawNotification(&canvas, notification, x: x, y: top + 12, app: app) }
            if !step.passed, step.expectsAbout(app) {
                canvas.outline(
                    x: column(index) + 1, y: top + 2, width: stepWidth - 2, height: laneHeight - 4, tooltip: step.outputLine)
            }
        }
    }

    static func drawNotification(_ canvas: inout Canvas, _ notification: SessionNotification, x: Int, y: Int, app: AppID) {
        let tooltip = "\(app) is told: \(notification.scenarioText)"
        switch notification {
        case .interruptionBegan:
            canvas.triangle(x: x, y: y + 46, pointingDown: true, fill: Color.interrupted, tooltip: tooltip)
        case .interruptionEnded(let shouldResume):
            canvas.triangle(
                x: x, y: y + 46, pointingDown: false, fill: shouldResume ? Color.active : Color.muted, tooltip: tooltip)
        case .routeChange(let reason, let previous, let current):
            canvas.diamond(
                x: x, y: y + 36, fill: Color.route,
                tooltip: "\(app): route change (\(reason)) \(previous) → \(current)")
        default:
            canvas.circle(cx: x, cy: y + 36, r: 3, fill: Color.other, tooltip: tooltip)
        }
    }

    static func drawLegend(_ canvas: inout Canvas, y: Int) {
        let items: [(String, String)] = [
            ("active", Color.active), ("interrupted", Color.interrupted), ("ducked (gain)", Color.ducked), ("muted", Color.muted),
            ("route change", Color.route), ("other notification", Color.other), ("system event", Color.system),
            ("failed step", Color.failed),
        ]
        var x = 10
        for (name, color) in items {
            canvas.rect(x: x, y: y, width: 14, height: 14, fill: color, tooltip: nil)
            canvas.text(x: x + 19, y: y + 12, name, size: 11, weight: "normal", fill: Color.ink)
            x += 30 + name.count * 7
        }
        canvas.text(
            x: 10, y: y + 32, "▼ interruption began · ▲ ended (green: should resume) · hover any mark for the details", size: 11,
            weight: "normal", fill: Color.ink)
    }

    /// Runs of equal non-nil values: (value, first index, index after the last).
    static func spans(_ values: [String?], _ body: (String, Int, Int) -> Void) {
        var start = 0
        while start < values.count {
            guard let value = values[start] else {
                start += 1
                continue
            }
            var end = start + 1
            while end < values.count, values[end] == value { end += 1 }
            body(value, start, end)
            start = end
        }
    }

    static func truncated(_ text: String, to count: Int) -> String {
        text.count <= count ? text : String(text.prefix(count - 1)) + "…"
    }

    /// A gain with at most two decimals, the same on every machine.
    static func number(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let whole = hundredths / 100
        let fraction = hundredths % 100
        if fraction == 0 { return "\(whole)" }
        return fraction % 10 == 0 ? "\(whole).\(fraction / 10)" : "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    enum Color {
        static let ink = "#212121"
        static let grid = "#e0e0e0"
        static let laneEven = "#fafafa"
        static let laneOdd = "#f0f4f8"
        static let active = "#2e7d32"
        static let interrupted = "#c62828"
        static let ducked = "#ef6c00"
        static let muted = "#616161"
        static let route = "#1565c0"
        static let other = "#8e24aa"
        static let system = "#00838f"
        static let failed = "#d50000"
        static let failedBand = "#ffcdd2"
        static let onBand = "#ffffff"
    }
}

extension StepResult {
    /// Whether this step is an expectation about the app (`expect APP …`).
    func expectsAbout(_ app: AppID) -> Bool {
        let words = text.split(separator: " ")
        return words.first == "expect" && words.dropFirst().first.map(String.init) == app.rawValue
    }
}
