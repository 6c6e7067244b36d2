import SwiftSyntax

/// `#if os(iOS)`, `#if targetEnvironment(…)`, `#if canImport(UIKit)` … around audio-session code:
/// on Linux the region compiles out silently and the controller in it vanishes. Each such region
/// is reported; `--fix` widens its condition to Linux (`os(iOS) || os(Linux)`) when the region
/// needs nothing else from Apple's systems (no UIKit, MediaPlayer, CallKit or WatchKit names),
/// and only when widening makes it the branch Linux takes (no earlier branch is taken there).
struct CompiledOutRegions {
    let visitor: PortingVisitor
    let ifConfig: IfConfigDeclSyntax

    /// Modules a Linux build of code using this package can import.
    static let linuxModules: Set<String> = [
        "Foundation", "FoundationEssentials", "Dispatch", "Glibc", "AVFoundation", "AVFAudio", "AVKit", "Combine",
        "AudioSession", "AudioSessionClient", "AudioSessionMedia",
    ]
    /// Name prefixes of Apple-only frameworks a region may not use to be widened.
    static let appleOnlyPrefixes = [
        "UI", "MP", "CX", "WK", "SK", "AVPlayerViewController", "AVRoutePicker", "AVPictureInPicture",
    ]

    func run() {
        var takenEarlier = false
        for clause in ifConfig.clauses {
            let active: Bool?
            if let condition = clause.condition {
                active = takenEarlier ? false : Self.evaluate(condition)
            } else {
                active = !takenEarlier
            }
            defer { if active == true { takenEarlier = true } }
            guard active == false, let elements = clause.elements, let session = Self.sessionName(in: elements) else { continue }
            let directive = clause.poundKeyword.text + (clause.condition.map { " " + $0.trimmedDescription } ?? "")
            let appleOnly = Self.appleOnlyName(in: elements)
            guard let condition = clause.condition, !takenEarlier, appleOnly == nil else {
                let why = appleOnly.map { "it also uses \($0), which Linux does not have" } ?? "another branch is taken on Linux"
                visitor.report(
                    .compiledOut, clause,
                    "`\(directive)` compiles out on Linux, and its audio-session code (\(session)) with it; \(why): port the region by hand",
                    fixable: false)
                continue
            }
            visitor.report(
                .compiledOut, clause,
                "`\(directive)` compiles out on Linux, and its audio-session code (\(session)) with it: widened to Linux, it needs nothing else from Apple's systems",
                fixable: true)
            let text = condition.trimmedDescription
            let simple = condition.is(FunctionCallExprSyntax.self) || condition.is(PrefixOperatorExprSyntax.self)
            visitor.edits.append(
                Edit(
                    start: condition.positionAfterSkippingLeadingTrivia.utf8Offset,
                    end: condition.endPositionBeforeTrailingTrivia.utf8Offset,
                    text: (simple ? text : "(\(text))") + " || os(Linux)"))
        }
    }

    /// The first audio-session name in a region (`AVAudioSession`, `AVAudioApplication`,
    /// `AudioSession…`, `kAudioSession…`), nil when it has none.
    static func sessionName(in node: some SyntaxProtocol) -> String? {
        node.tokens(viewMode: .sourceAccurate).lazy.map(\.text).first { text in
            text.hasPrefix("AVAudioSession") || text.hasPrefix("AVAudioApplication") || text.hasPrefix("AudioSession")
                || text.hasPrefix("kAudioSession")
        }
    }

    /// The first name in a region that belongs to a framework Linux does not have.
    static func appleOnlyName(in node: some SyntaxProtocol) -> String? {
        node.tokens(viewMode: .sourceAccurate).lazy.map(\.text).first { text in
            appleOnlyPrefixes.contains { prefix in
                guard text.hasPrefix(prefix) else { return false }
                // `UIApplication`, `MPNowPlayingInfoCenter`: the prefix and then a capital letter.
                let rest = text.dropFirst(prefix.count)
                return prefix.count > 2 || rest.first?.isUppercase == true
            }
        }
    }

    /// Whether a compilation condition holds on Linux; nil when it depends on something else
    /// (a custom flag, an architecture).
    static func evaluate(_ condition: ExprSyntax) -> Bool? {
        if let literal = condition.as(BooleanLiteralExprSyntax.self) { return literal.literal.tokenKind == .keyword(.true) }
        if let tuple = condition.as(TupleExprSyntax.self), tuple.elements.count == 1, let inner = tuple.elements.first {
            return evaluate(inner.expression)
        }
        if let prefix = condition.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
            return evaluate(prefix.expression).map { !$0 }
        }
        if let infix = condition.as(InfixOperatorExprSyntax.self), let op = infix.operator.as(BinaryOperatorExprSyntax.self) {
            return combine(evaluate(infix.leftOperand), op.operator.text, evaluate(infix.rightOperand))
        }
        if let sequence = condition.as(SequenceExprSyntax.self) {
            // Unfolded `a && b || c`: && binds tighter than ||.
            var disjunction: Bool? = false
            var conjunction: Bool? = true
            for element in sequence.elements {
                guard let op = element.as(BinaryOperatorExprSyntax.self) else {
                    conjunction = combine(conjunction, "&&", evaluate(element))
                    continue
                }
                guard op.operator.text == "&&" || op.operator.text == "||" else { return nil }
                if op.operator.text == "||" {
                    disjunction = combine(disjunction, "||", conjunction)
                    conjunction = true
                }
            }
            return combine(disjunction, "||", conjunction)
        }
        guard let call = condition.as(FunctionCallExprSyntax.self),
            let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
        else { return nil }
        let argument = call.arguments.first?.expression.trimmedDescription ?? ""
        switch name {
        case "os": return argument == "Linux"
        case "canImport": return linuxModules.contains(argument)
        case "targetEnvironment": return false
        case "swift", "compiler", "hasFeature", "hasAttribute": return true
        default: return nil
        }
    }

    /// Three-valued && and ||.
    static func combine(_ left: Bool?, _ op: String, _ right: Bool?) -> Bool? {
        switch op {
        case "&&":
            if left == false || right == false { return false }
            return left == true && right == true ? true : nil
        case "||":
            if left == true || right == true { return true }
            return left == false && right == false ? false : nil
        default: return nil
        }
    }
}
