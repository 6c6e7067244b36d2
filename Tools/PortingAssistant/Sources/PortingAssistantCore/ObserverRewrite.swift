import SwiftSyntax

/// Selector-based NotificationCenter observers of one class, rewritten into token observers
/// with the same lifetime: the handler is called while the object lives (`[weak self]`), the
/// tokens are removed in `deinit` and wherever the class called `removeObserver(self)`, and the
/// handlers lose their `@objc`. Builds with Foundation on Linux and on Apple's systems alike:
///
/// ```swift
/// NotificationCenter.default.addObserver(self, selector: #selector(handle(_:)), name: N, object: O)
/// // becomes
/// audioSessionObservers.append(NotificationCenter.default.addObserver(forName: N, object: O, queue: nil) { [weak self] notification in self?.handle(notification) })
/// ```
///
/// A class's extensions are its members here too (an observer registered, a handler or a
/// `removeObserver(self…)` in an extension), in its own file or in another file examined with it;
/// the tokens are stored in the class's own declaration, and each edit goes to the file it is in.
/// (An extension of a class declared in none of the files given cannot hold them: its observers
/// are left for a person.)
struct ObserverRewrite {
    /// The visitor of the class's own file: the token storage goes there.
    let visitor: PortingVisitor
    let classDecl: ClassDeclSyntax
    /// The class's extensions, each with the visitor of its file.
    let extensions: [(decl: ExtensionDeclSyntax, visitor: PortingVisitor)]

    /// Where the class's members are (its declaration and its extensions), with their file's visitor.
    var memberBlocks: [(block: MemberBlockSyntax, visitor: PortingVisitor)] {
        [(classDecl.memberBlock, visitor)] + extensions.map { ($0.decl.memberBlock, $0.visitor) }
    }

    /// Every function call in the class's members (not in nested types), with its file's visitor.
    var calls: [Located<FunctionCallExprSyntax>] {
        memberBlocks.flatMap { member in
            let finder = CallFinder(viewMode: .sourceAccurate)
            finder.walk(member.block)
            return finder.calls.map { Located(node: $0, visitor: member.visitor) }
        }
    }

    /// A node and the visitor of the file it is in.
    struct Located<Node> {
        let node: Node
        let visitor: PortingVisitor
    }

    static let tokens = "audioSessionObservers"

    /// One `addObserver(self, selector:name:object:)` call of this class.
    struct Registration {
        let call: FunctionCallExprSyntax
        /// The visitor of the call's file.
        let visitor: PortingVisitor
        let center: String
        let selector: MacroExpansionExprSyntax
        let handler: Located<FunctionDeclSyntax>?
        let name: String
        let object: String
    }

    func run() {
        let calls = self.calls
        let registrations = observerCalls(among: calls)
        guard !registrations.isEmpty else {
            reportRemovalsOfTokenObservers(among: calls)
            return
        }
        var rewritten: [Located<FunctionDeclSyntax>] = []
        for registration in registrations {
            let visitor = registration.visitor
            visitor.handledSelectors.insert(registration.selector.id)
            guard let handler = registration.handler, handler.node.signature.parameterClause.parameters.count <= 1 else {
                visitor.report(
                    .selectorObserver, registration.call,
                    "a selector observer needs the Objective-C runtime; its handler is not a method of this class taking the notification, so rewrite it by hand with addObserver(forName:object:queue:using:)",
                    fixable: false)
                continue
            }
            visitor.report(
                .selectorObserver, registration.call,
                "a selector observer needs the Objective-C runtime: becomes addObserver(forName:object:queue:using:) calling \(handler.node.name.text) while the object lives, removed when it goes",
                fixable: true)
            visitor.edits.append(replacement(for: registration, handler: handler.node))
            rewritten.append(handler)
        }
        guard !rewritten.isEmpty else { return }
        dropObjC(from: rewritten, keepingThoseUsedElsewhere: registrations)
        let removedInDeinit = rewriteRemoveObserverCalls(among: calls, registrations: registrations)
        // Tokens are removed from the center they came from: the one every registration used.
        let centers = Set(registrations.map(\.center))
        addTokenStorage(
            removingInDeinit: !removedInDeinit, center: centers.count == 1 ? centers.first! : "NotificationCenter.default")
    }

    /// In a class whose observers are already tokens (ours, after a fix), `removeObserver(self…)`
    /// removes nothing: left for a person, so a rerun never calls such a file done.
    private func reportRemovalsOfTokenObservers(among calls: [Located<FunctionCallExprSyntax>]) {
        let holdsTokens = classDecl.memberBlock.members.contains { member in
            member.decl.as(VariableDeclSyntax.self)?.bindings.contains {
                $0.pattern.trimmedDescription == Self.tokens
            } ?? false
        }
        guard holdsTokens else { return }
        for call in calls where Self.removal(of: call.node) != nil {
            call.visitor.report(
                .removeObserver, call.node,
                "removeObserver(self…) removes nothing once the observers are tokens: remove the matching tokens from \(Self.tokens) instead",
                fixable: false)
        }
    }

    /// Whether the class removes observers by name (`removeObserver(self, name:object:)`): then
    /// each token is kept with its notification's name, so that call can remove exactly those.
    var keepsNames: Bool {
        calls.contains { Self.removal(of: $0.node)?.name != nil }
    }

    /// `X.removeObserver(self)` → (X, nil); `X.removeObserver(self, name: N, object: O)` → (X, (N, O)).
    static func removal(of call: FunctionCallExprSyntax) -> (center: String, name: (name: String, object: String)?)? {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self),
            member.declName.baseName.text == "removeObserver", let base = member.base,
            call.arguments.first?.expression.trimmedDescription == "self"
        else { return nil }
        let arguments = Array(call.arguments)
        if arguments.count == 1 { return (base.trimmedDescription, nil) }
        guard arguments.map({ $0.label?.text }) == [nil, "name", "object"] else { return nil }
        return (base.trimmedDescription, (arguments[1].expression.trimmedDescription, arguments[2].expression.trimmedDescription))
    }

    /// Every `X.addObserver(self, selector: #selector(m…), name: N, object: O)` in the class's own
    /// members (not in nested types).
    private func observerCalls(among calls: [Located<FunctionCallExprSyntax>]) -> [Registration] {
        calls.compactMap { located -> Registration? in
            let call = located.node
            guard let member = call.calledExpression.as(MemberAccessExprSyntax.self),
                member.declName.baseName.text == "addObserver", let base = member.base,
                call.arguments.map({ $0.label?.text }) == [nil, "selector", "name", "object"],
                call.arguments.first?.expression.trimmedDescription == "self",
                let selector = call.arguments.dropFirst().first?.expression.as(MacroExpansionExprSyntax.self),
                selector.macroName.text == "selector"
            else { return nil }
            let arguments = Array(call.arguments)
            let methodName = selector.arguments.first.map { Self.methodName($0.expression) } ?? ""
            return Registration(
                call: call, visitor: located.visitor, center: base.trimmedDescription, selector: selector,
                handler: method(named: methodName),
                name: arguments[2].expression.trimmedDescription, object: arguments[3].expression.trimmedDescription)
        }
    }

    /// `handle(_:)`, `self.handle(_:)`, `Player.handle` → `handle`.
    static func methodName(_ expression: ExprSyntax) -> String {
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        if let member = expression.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
        return ""
    }

    private func method(named name: String) -> Located<FunctionDeclSyntax>? {
        for member in memberBlocks {
            for item in member.block.members {
                if let function = item.decl.as(FunctionDeclSyntax.self), function.name.text == name {
                    return Located(node: function, visitor: member.visitor)
                }
            }
        }
        return nil
    }

    /// Whether the class is `@MainActor`: its handlers are then called on the main queue, in its
    /// isolation (a closure that is not could not call them), and its tokens are kept where its
    /// nonisolated `deinit` may remove them.
    var isMainActor: Bool {
        classDecl.attributes.contains { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "MainActor" }
    }

    private func replacement(for registration: Registration, handler: FunctionDeclSyntax) -> Edit {
        var call: String
        if let parameter = handler.signature.parameterClause.parameters.first {
            let label = parameter.firstName.text == "_" ? "" : "\(parameter.firstName.text): "
            // A handler taking Objective-C's NSNotification gets one made from the Notification.
            let argument =
                parameter.type.trimmedDescription == "NSNotification"
                ? "NSNotification(name: notification.name, object: notification.object, userInfo: notification.userInfo)"
                : "notification"
            call = "self?.\(handler.name.text)(\(label)\(argument))"
        } else {
            call = "self?.\(handler.name.text)()"
        }
        let queue = isMainActor ? ".main" : "nil"
        if isMainActor { call = "MainActor.assumeIsolated { \(call) }" }
        let closureParameter = handler.signature.parameterClause.parameters.isEmpty ? "_" : "notification"
        let observer =
            "\(registration.center).addObserver(forName: \(registration.name), object: \(registration.object), queue: \(queue)) { [weak self] \(closureParameter) in \(call) }"
        let text =
            keepsNames
            ? "\(Self.tokens).append((\(registration.name), \(observer)))" : "\(Self.tokens).append(\(observer))"
        return Edit(
            start: registration.call.positionAfterSkippingLeadingTrivia.utf8Offset,
            end: registration.call.endPositionBeforeTrailingTrivia.utf8Offset, text: text)
    }

    /// `@objc` is no longer needed on a rewritten handler, unless another selector names it.
    private func dropObjC(
        from handlers: [Located<FunctionDeclSyntax>], keepingThoseUsedElsewhere registrations: [Registration]
    ) {
        let selectorNames = SelectorFinder(viewMode: .sourceAccurate)
        for member in memberBlocks { selectorNames.walk(member.block) }
        let handled = Set(registrations.map(\.selector.id))
        let usedElsewhere = Set(
            selectorNames.selectors.filter { !handled.contains($0.id) }.compactMap { selector in
                selector.arguments.first.map { Self.methodName($0.expression) }
            })
        for located in handlers where !usedElsewhere.contains(located.node.name.text) {
            let visitor = located.visitor
            for element in located.node.attributes {
                guard let attribute = element.as(AttributeSyntax.self), attribute.attributeName.trimmedDescription == "objc",
                    !visitor.handledAttributes.contains(attribute.id)
                else { continue }
                visitor.handledAttributes.insert(attribute.id)
                visitor.report(.objc, attribute, "@objc is not needed once its selector observer is a closure", fixable: true)
                visitor.edits.append(Self.removal(of: attribute, visitor.converter))
            }
        }
    }

    /// The attribute and the space after it; when it stands on a line of its own, the whole line.
    static func removal(of attribute: AttributeSyntax, _ converter: SourceLocationConverter) -> Edit {
        let start = attribute.positionAfterSkippingLeadingTrivia.utf8Offset
        let end = attribute.endPosition.utf8Offset
        guard let next = attribute.lastToken(viewMode: .sourceAccurate)?.nextToken(viewMode: .sourceAccurate),
            next.leadingTrivia.first.map({ if case .newlines = $0 { true } else { false } }) == true
        else { return Edit(start: start, end: end, text: "") }
        let indentation = PortingVisitor.indentation(of: attribute, in: converter)
        let column = attribute.startLocation(converter: converter).column - 1
        guard indentation.count == column else { return Edit(start: start, end: end, text: "") }  // code before it on the line
        return Edit(start: start - indentation.utf8.count, end: end + 1, text: "")
    }

    /// `removeObserver(self)` removes the tokens instead; `removeObserver(self, name: N, object: O)`
    /// removes the tokens of N's observers, so the fixed code stops hearing exactly what the
    /// original stopped hearing. Returns whether `deinit` removed them all.
    private func rewriteRemoveObserverCalls(
        among calls: [Located<FunctionCallExprSyntax>], registrations: [Registration]
    ) -> Bool {
        var inDeinit = false
        let all = keepsNames ? "$0.token" : "$0"
        for located in calls {
            let (call, visitor) = (located.node, located.visitor)
            guard let (center, byName) = Self.removal(of: call) else { continue }
            let text: String
            if let (name, object) = byName {
                // O nil: every observer of N; else only those registered with the same object,
                // which is exact when every registration of N names that object.
                let objects = Set(registrations.filter { $0.name == name }.map(\.object))
                guard object == "nil" || objects.isSubset(of: [object]) else {
                    visitor.report(
                        .removeObserver, call,
                        "removeObserver(self, name:object:) with an object some of that name's observers do not name: remove those tokens from \(Self.tokens) by hand",
                        fixable: false)
                    continue
                }
                visitor.report(
                    .removeObserver, call,
                    "removeObserver(self, name:object:) removes that notification's observer tokens instead", fixable: true)
                text =
                    "\(Self.tokens).removeAll { observer in guard observer.name == \(name) else { return false }; \(center).removeObserver(observer.token); return true }"
            } else {
                visitor.report(.removeObserver, call, "removeObserver(self) removes the observer tokens instead", fixable: true)
                text = "\(Self.tokens).forEach { \(center).removeObserver(\(all)) }; \(Self.tokens).removeAll()"
                if Self.isInDeinit(call) { inDeinit = true }
            }
            visitor.edits.append(
                Edit(
                    start: call.positionAfterSkippingLeadingTrivia.utf8Offset,
                    end: call.endPositionBeforeTrailingTrivia.utf8Offset, text: text))
        }
        return inDeinit
    }

    static func isInDeinit(_ node: some SyntaxProtocol) -> Bool {
        var current = node.parent
        while let parent = current {
            if parent.is(DeinitializerDeclSyntax.self) { return true }
            if parent.is(ClassDeclSyntax.self) || parent.is(ExtensionDeclSyntax.self) { return false }
            current = parent.parent
        }
        return false
    }

    /// The token array as the class's first member, and their removal in `deinit`.
    private func addTokenStorage(removingInDeinit: Bool, center: String) {
        let members = classDecl.memberBlock.members
        let indent = members.first.map { PortingVisitor.indentation(of: $0, in: visitor.converter) } ?? "    "
        let type = keepsNames ? "[(name: Notification.Name, token: NSObjectProtocol)]" : "[NSObjectProtocol]"
        // Private unless an extension in another file uses them (Swift's `private` stops at the file).
        let access = extensions.contains { $0.visitor !== visitor } ? "" : "private "
        let storage = isMainActor ? "nonisolated(unsafe) \(access)var" : "\(access)var"
        var text = "\n\(indent)\(storage) \(Self.tokens): \(type) = []"
        let removal = "\(Self.tokens).forEach { \(center).removeObserver(\(keepsNames ? "$0.token" : "$0")) }"
        let deinitDecl = members.lazy.compactMap { $0.decl.as(DeinitializerDeclSyntax.self) }.first
        if removingInDeinit, deinitDecl == nil {
            text += "\n\n\(indent)deinit {\n\(indent)    \(removal)\n\(indent)}"
        }
        if removingInDeinit, let body = deinitDecl?.body {
            visitor.edits.append(
                Edit(
                    start: body.leftBrace.endPositionBeforeTrailingTrivia.utf8Offset,
                    end: body.leftBrace.endPositionBeforeTrailingTrivia.utf8Offset, text: "\n\(indent)    \(removal)"))
        }
        let brace = classDecl.memberBlock.leftBrace.endPositionBeforeTrailingTrivia.utf8Offset
        visitor.edits.append(Edit(start: brace, end: brace, text: text + (members.isEmpty ? "\n" : "\n")))
    }
}

/// Function calls under a node, not inside nested type declarations.
final class CallFinder: SyntaxVisitor {
    var calls: [FunctionCallExprSyntax] = []

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        calls.append(node)
        return .visitChildren
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}

/// `#selector(…)` expressions under a node.
final class SelectorFinder: SyntaxVisitor {
    var selectors: [MacroExpansionExprSyntax] = []

    override func visit(_ node: MacroExpansionExprSyntax) -> SyntaxVisitorContinueKind {
        if node.macroName.text == "selector" { selectors.append(node) }
        return .visitChildren
    }
}
