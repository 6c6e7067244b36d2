import SwiftSyntax

/// `(userInfo[key] as! NSValue).getValue(&reason)`: older iOS code reads an interruption's or a
/// route change's number so; Linux Foundation traps there ("getValue(_:) must be overriden").
/// The typed form reads the same value on both systems (the session's userInfo numbers are
/// `UInt`, NSNumbers on Apple's systems):
///
/// ```swift
/// var type: UInt = 0
/// (info[AVAudioSessionInterruptionTypeKey] as! NSValue).getValue(&type)
/// // becomes
/// if let value = info[AVAudioSessionInterruptionTypeKey] as? UInt { type = numericCast(value) }
/// ```
///
/// A variable of another type (an enum of the session's) gets `T(rawValue:)`. The variable's
/// declared type is read from the enclosing function; without one the call is left for a person.
struct GetValueRewrite {
    let visitor: PortingVisitor
    let call: FunctionCallExprSyntax

    static let integers: Set<String> = ["UInt", "Int", "UInt8", "UInt16", "UInt32", "UInt64", "Int8", "Int16", "Int32", "Int64"]

    /// Whether `call` is `(E as! NSValue).getValue(&v)` (or `as?`, or `?.getValue`): it reports
    /// and, where it can, rewrites it.
    func run() -> Bool {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self),
            member.declName.baseName.text == "getValue", call.arguments.count == 1,
            let target = call.arguments.first?.expression.as(InOutExprSyntax.self)?.expression.as(DeclReferenceExprSyntax.self),
            let value = Self.nsValueOperand(member.base)
        else { return false }
        let variable = target.baseName.text
        guard call.parent?.is(CodeBlockItemSyntax.self) == true, let type = declaredType(of: variable) else {
            visitor.report(
                .nsValueGetValue, call,
                "NSValue.getValue(_:) traps on Linux: read the number typed, `if let value = \(value) as? UInt { … }`",
                fixable: false)
            return true
        }
        // An integer, or an option set's or enum's RawValue (`InterruptionOptions.RawValue`): numericCast.
        let assignment =
            Self.integers.contains(type) || type.hasSuffix(".RawValue")
            ? "if let value = \(value) as? UInt { \(variable) = numericCast(value) }"
            : "if let value = \(value) as? UInt, let typed = \(type)(rawValue: numericCast(value)) { \(variable) = typed }"
        visitor.report(
            .nsValueGetValue, call,
            "NSValue.getValue(_:) traps on Linux: the number is read typed instead (`as? UInt`), as it is on Apple's systems too",
            fixable: true)
        visitor.edits.append(
            Edit(
                start: call.positionAfterSkippingLeadingTrivia.utf8Offset, end: call.endPositionBeforeTrailingTrivia.utf8Offset,
                text: assignment))
        return true
    }

    /// `(E as! NSValue)`, `(E as? NSValue)` or `(E as? NSValue)?` → E.
    static func nsValueOperand(_ base: ExprSyntax?) -> String? {
        var expression = base
        if let chained = expression?.as(OptionalChainingExprSyntax.self) { expression = chained.expression }
        guard let tuple = expression?.as(TupleExprSyntax.self), tuple.elements.count == 1,
            let inner = tuple.elements.first?.expression
        else { return nil }
        if let cast = inner.as(AsExprSyntax.self) {  // a folded tree
            return cast.type.trimmedDescription == "NSValue" ? cast.expression.trimmedDescription : nil
        }
        // As parsed (not folded): `E`, `as!`/`as?`, `NSValue`.
        guard let sequence = inner.as(SequenceExprSyntax.self), sequence.elements.count == 3 else { return nil }
        let parts = Array(sequence.elements)
        guard parts[1].is(UnresolvedAsExprSyntax.self), parts[2].as(TypeExprSyntax.self)?.type.trimmedDescription == "NSValue"
        else { return nil }
        return parts[0].trimmedDescription
    }

    /// The type written on `var NAME: T` in the function (or closure) around the call.
    private func declaredType(of name: String) -> String? {
        var scope = call.parent
        while let node = scope, !node.is(FunctionDeclSyntax.self), !node.is(ClosureExprSyntax.self),
            !node.is(InitializerDeclSyntax.self)
        {
            scope = node.parent
        }
        guard let scope else { return nil }
        let finder = BindingFinder(name: name, viewMode: .sourceAccurate)
        finder.walk(scope)
        return finder.type
    }
}

/// The type annotation of `var NAME: T` (or `let`) under a node.
final class BindingFinder: SyntaxVisitor {
    let name: String
    var type: String?

    init(name: String, viewMode: SyntaxTreeViewMode) {
        self.name = name
        super.init(viewMode: viewMode)
    }

    override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
        if node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name, let annotation = node.typeAnnotation {
            type = annotation.type.trimmedDescription
        }
        return .visitChildren
    }
}
