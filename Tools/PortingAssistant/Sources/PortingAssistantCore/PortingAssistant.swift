import SwiftParser
import SwiftSyntax

/// What the assistant found in one source, and the source with the mechanical fixes applied.
public struct PortingReport: Sendable {
    /// Everything that does not build on Linux, in source order.
    public var findings: [Finding]
    /// The source rewritten (identical to the input when nothing was fixable).
    public var fixedSource: String
    /// What is left for a person once the fixes are applied.
    public var remaining: [Finding]
}

/// Reads iOS Swift code and says what will not build on Linux and why; rewrites the mechanical
/// cases: selector-based NotificationCenter observers (into token observers removed when the
/// object goes, with `@objc` dropped from their handlers) and `catch let error as NSError` as the
/// last clause.
public enum PortingAssistant {
    public static func examine(_ source: String, fileName: String = "source.swift") -> PortingReport {
        examine(files: [(fileName, source)])[0]
    }

    /// The files of one app examined together: a class's extensions in another of them are its
    /// members as in its own file (selector observers there keep their tokens in the class).
    public static func examine(files: [(name: String, source: String)]) -> [PortingReport] {
        let first = scan(files)
        var fixed = zip(files, first).map { file, scanned in
            scanned.edits.isEmpty ? file.source : file.source.applying(scanned.edits)
        }
        func named(_ sources: [String]) -> [(name: String, source: String)] { zip(files, sources).map { ($0.name, $1) } }
        var remaining =
            first.allSatisfy(\.edits.isEmpty)
            ? first.map { $0.findings.filter { !$0.isFixable } } : scan(named(fixed)).map(\.findings)
        // A fix can make another possible (the last use of UIKit's UIApplication removed: its import
        // is unused now): fixed again, a few passes at most.
        for _ in 0..<3 where remaining.joined().contains(where: \.isFixable) {
            let more = scan(named(fixed))
            guard more.contains(where: { !$0.edits.isEmpty }) else { break }
            fixed = zip(fixed, more).map { source, scanned in scanned.edits.isEmpty ? source : source.applying(scanned.edits) }
            remaining = scan(named(fixed)).map(\.findings)
        }
        return files.indices.map { PortingReport(findings: first[$0].findings, fixedSource: fixed[$0], remaining: remaining[$0]) }
    }

    static func scan(_ files: [(name: String, source: String)]) -> [(findings: [Finding], edits: [Edit])] {
        let trees = files.map { Parser.parse(source: $0.source) }
        let visitors = zip(files, trees).map { file, tree in
            let visitor = PortingVisitor(converter: SourceLocationConverter(fileName: file.name, tree: tree))
            visitor.observesKeyValues = file.source.contains("observe(\\.") || file.source.contains("forKeyPath")
            visitor.selectorNames = PortingVisitor.namesOfUnrewrittenSelectors(in: tree)
            return visitor
        }
        PortingVisitor.rewriteObservers(in: trees, visitors: visitors)
        for (visitor, tree) in zip(visitors, trees) { visitor.walk(tree) }
        return visitors.map { visitor in
            (visitor.findings.sorted { ($0.line, $0.column) < ($1.line, $1.column) }, visitor.edits)
        }
    }
}

/// Walks a source once: findings for everything that will not build, edits for what it can fix.
final class PortingVisitor: SyntaxVisitor {
    let converter: SourceLocationConverter
    var findings: [Finding] = []
    var edits: [Edit] = []

    init(converter: SourceLocationConverter) {
        self.converter = converter
        super.init(viewMode: .sourceAccurate)
    }

    func report(_ kind: Finding.Kind, _ node: some SyntaxProtocol, _ message: String, fixable: Bool) {
        let location = node.startLocation(converter: converter)
        findings.append(Finding(kind: kind, line: location.line, column: location.column, message: message, isFixable: fixable))
    }

    // MARK: Modules

    static let appleOnly: [String: String] = [
        "UIKit":
            "the UIKit package here (Porting/UIKit) offers only what audio code uses (UIImage, UIApplication's state and notifications); views, colours, layers and the rest do not exist on Linux",
        "CallKit": "CallKit does not exist on Linux: a call is the system session of I4 (audiosession system call begin)",
        "WatchKit": "WatchKit does not exist on Linux",
        "SwiftUI": "SwiftUI does not exist on Linux",
    ]

    /// `import Combine` and `import AVKit` build as they are: this package's Combine product is
    /// OpenCombine, and its AVKit product re-exports AVFoundation's session API (README "Porting
    /// iOS code"); AVKit's user interface does not exist here and fails at its names.
    override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind {
        let module = node.path.first?.name.text ?? ""
        if module == "UIKit", node.path.count == 1, let name = node.path.first?.name, !Self.usesUIKit(node.root) {
            // Xcode's templates import UIKit in every file; one that uses none of it only needs the
            // Foundation UIKit brought along (this package's UIKit is a porting aid, not a UI).
            report(
                .appleOnlyModule, node,
                "nothing of UIKit is used here: `import Foundation` (what UIKit brought along; the UIKit package here, Porting/UIKit, offers only UIImage and UIApplication)",
                fixable: true)
            edits.append(
                Edit(
                    start: name.positionAfterSkippingLeadingTrivia.utf8Offset,
                    end: name.endPositionBeforeTrailingTrivia.utf8Offset, text: "Foundation"))
        } else if module == "os", node.path.count > 1, let last = node.path.last {
            // `import os.log` / `os.signpost`: a Swift module has no submodules; `os` has them all.
            report(
                .appleOnlyModule, node,
                "`import \(node.path.trimmedDescription)`: here `import os` brings Logger, os_log and OSSignposter", fixable: true
            )
            edits.append(
                Edit(
                    start: node.path.first!.name.endPositionBeforeTrailingTrivia.utf8Offset,
                    end: last.endPositionBeforeTrailingTrivia.utf8Offset, text: ""))
        } else if module == "UIKit" {
            // Builds here while it uses only what this UIKit offers; the first name it does not is said.
            if let name = Self.uiKitName(in: node.root) {
                report(.appleOnlyModule, node, "\(name): \(Self.appleOnly["UIKit"]!)", fixable: false)
            }
        } else if let message = Self.appleOnly[module] {
            report(.appleOnlyModule, node, message, fixable: false)
        }
        return .skipChildren
    }

    /// The first name in a source that comes from UIKit (or the frameworks it brings along:
    /// QuartzCore, CoreGraphics beyond the geometry Foundation has on Linux) and that this
    /// package's UIKit does not offer, outside imports and `canImport(UIKit)`; nil when there is none.
    static func uiKitName(in root: Syntax) -> String? {
        uiKitNamesUsed(in: root).first { !offeredUIKitNames.contains($0) }
    }

    /// Whether a source uses anything of UIKit, offered here or not.
    static func usesUIKit(_ root: Syntax) -> Bool { uiKitNamesUsed(in: root).contains { _ in true } }

    /// What the UIKit package here (Porting/UIKit) offers (a porting aid for audio code).
    static let offeredUIKitNames: Set<String> = [
        "UIImage", "UIApplication", "UIImagePNGRepresentation", "UIImageJPEGRepresentation",
    ]

    /// UIKit's names a source uses, in order, lazily (outside imports and `canImport(UIKit)`).
    private static func uiKitNamesUsed(in root: Syntax) -> some Sequence<String> {
        root.tokens(viewMode: .sourceAccurate).lazy.filter { token in
            token.text != "UIKit" && token.ancestorOrSelf(mapping: { $0.as(ImportDeclSyntax.self) }) == nil
        }.map(\.text).filter { text in
            for prefix in ["UI", "CA"] where text.hasPrefix(prefix) && text.dropFirst(2).first?.isUppercase == true {
                return true
            }
            return uiKitNames.contains { text.hasPrefix($0) }
        }
    }

    /// UIKit's names without its UI prefix (and CoreGraphics' beyond CGFloat, CGPoint, CGSize, CGRect).
    static let uiKitNames = [
        "NSLayout", "NSText", "NSParagraphStyle", "NSMutableParagraphStyle", "NSShadow", "NSDirectionalEdgeInsets",
        "NSCollectionLayout", "NSDiffableDataSource", "NSDataAsset", "CGColor", "CGContext", "CGImage", "CGPath",
        "CGMutablePath", "CGGradient", "CGAffineTransform",
    ]

    // MARK: Classes: selector observers, @objc handlers, removeObserver(self)

    /// Each class's observers, with those of its extensions, are rewritten before the walk (an
    /// extension may come first): the walk reports only the selectors left. An extension in its
    /// class's file belongs to the class of that name there; one in another file to the class of
    /// that name declared in exactly one of the files (a name declared twice, nested types of two
    /// files, is left alone: which one it extends is not known here).
    static func rewriteObservers(in trees: [SourceFileSyntax], visitors: [PortingVisitor]) {
        let types = trees.map { tree in
            let finder = TypeFinder(viewMode: .sourceAccurate)
            finder.walk(tree)
            return finder
        }
        var declaringFiles: [String: Set<Int>] = [:]
        for (index, found) in types.enumerated() {
            for classDecl in found.classes { declaringFiles[classDecl.name.text, default: []].insert(index) }
        }
        for (index, found) in types.enumerated() {
            for classDecl in found.classes {
                let name = classDecl.name.text
                let alone = declaringFiles[name]?.count == 1
                let extensions = types.enumerated().flatMap { other, otherTypes in
                    (other == index || alone ? otherTypes.extensions : []).filter { $0.extendedType.trimmedDescription == name }
                        .map { (decl: $0, visitor: visitors[other]) }
                }
                ObserverRewrite(visitor: visitors[index], classDecl: classDecl, extensions: extensions).run()
            }
        }
    }

    // MARK: #selector outside the observers rewritten above

    override func visit(_ node: MacroExpansionExprSyntax) -> SyntaxVisitorContinueKind {
        guard node.macroName.text == "selector", !handledSelectors.contains(node.id) else { return .visitChildren }
        var inExtension = false
        var ancestor = node.parent
        while let current = ancestor, !inExtension {
            inExtension = current.is(ExtensionDeclSyntax.self)
            ancestor = current.parent
        }
        report(
            .selector, node,
            inExtension
                ? "#selector needs the Objective-C runtime, which Swift on Linux does not have; in an extension of a type declared in none of the files given the assistant cannot keep an observer's token (give it the class's file too): register it with addObserver(forName:object:queue:using:) and keep the token in the class (so that removing it works)"
                : "#selector needs the Objective-C runtime, which Swift on Linux does not have: pass a closure instead",
            fixable: false)
        return .visitChildren
    }

    /// Selectors inside observer calls the class rewrite reported.
    var handledSelectors: Set<SyntaxIdentifier> = []
    /// `@objc` attributes the class rewrite reported (and removes).
    var handledAttributes: Set<SyntaxIdentifier> = []

    /// `@objc` and `@objcMembers` (bridge attributes: React Native modules and the like) do not
    /// build on Linux, where nothing can call through them: removed, and said so. A method a
    /// remaining `#selector` names keeps it for a person (the selector is reported).
    override func visit(_ node: AttributeSyntax) -> SyntaxVisitorContinueKind {
        let name = node.attributeName.trimmedDescription
        guard name == "objc" || name == "objcMembers", !handledAttributes.contains(node.id) else { return .visitChildren }
        if let function = node.parent?.parent?.as(FunctionDeclSyntax.self), selectorNames.contains(function.name.text) {
            report(.objc, node, "@objc needs the Objective-C runtime, which Swift on Linux does not have", fixable: false)
            return .visitChildren
        }
        handledAttributes.insert(node.id)
        report(
            .objc, node, "@\(name) needs the Objective-C runtime and nothing on Linux calls through it: removed", fixable: true)
        edits.append(ObserverRewrite.removal(of: node, converter))
        return .visitChildren
    }

    /// `dynamic` is removed where the file does no key-value observing (then nothing needs it).
    override func visit(_ node: DeclModifierSyntax) -> SyntaxVisitorContinueKind {
        guard node.name.text == "dynamic" else { return .visitChildren }
        if observesKeyValues {
            report(
                .keyValueObserving, node,
                "dynamic (for key-value observing) needs the Objective-C runtime: read the session's notifications instead",
                fixable: false)
        } else {
            report(
                .keyValueObserving, node, "dynamic needs the Objective-C runtime and nothing here observes it: removed",
                fixable: true)
            edits.append(
                Edit(
                    start: node.positionAfterSkippingLeadingTrivia.utf8Offset,
                    end: node.endPosition.utf8Offset, text: ""))
        }
        return .visitChildren
    }

    /// Methods a `#selector` outside a rewritten observer names (filled before the walk).
    var selectorNames: Set<String> = []
    /// Whether the file observes key paths (`observe(\.…)`, `forKeyPath:`).
    var observesKeyValues = false

    // MARK: Calls: KVO

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        guard let member = node.calledExpression.as(MemberAccessExprSyntax.self) else { return .visitChildren }
        if GetValueRewrite(visitor: self, call: node).run() { return .visitChildren }
        let labels = node.arguments.map { $0.label?.text }
        let name = member.declName.baseName.text
        // (begin/endReceivingRemoteControlEvents build as they are: this UIKit's UIApplication has them,
        // as no-ops — MPRemoteCommandCenter's commands reach the desktop's controls once they have handlers.)
        if name == "observe", node.arguments.first?.expression.is(KeyPathExprSyntax.self) == true {
            report(
                .keyValueObserving, node,
                "key-value observing needs the Objective-C runtime: AudioSession.shared.notifications() gives .outputVolume and every change",
                fixable: false)
        } else if name == "addObserver", labels.contains("forKeyPath") {
            report(
                .keyValueObserving, node,
                "addObserver(_:forKeyPath:…) is key-value observing: read the session's notifications instead", fixable: false)
        }
        return .visitChildren
    }

    // MARK: #if regions that compile audio-session code out on Linux

    override func visit(_ node: IfConfigDeclSyntax) -> SyntaxVisitorContinueKind {
        CompiledOutRegions(visitor: self, ifConfig: node).run()
        return .visitChildren
    }

    // MARK: catch let error as NSError, last

    override func visit(_ node: DoStmtSyntax) -> SyntaxVisitorContinueKind {
        guard let last = node.catchClauses.last, last.catchItems.count == 1, let item = last.catchItems.first,
            item.whereClause == nil, let pattern = item.pattern
        else { return .visitChildren }
        let words = pattern.trimmedDescription.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard words.count == 4, words[0] == "let" || words[0] == "var", words[2] == "as", words[3] == "NSError" else {
            return .visitChildren
        }
        let name = String(words[1])
        report(
            .nsErrorLastCatch, last,
            "`catch let \(name) as NSError` as the last clause is not exhaustive on Linux (errors are not all NSErrors): `catch { let \(name) = error as NSError … }`",
            fixable: true)
        // `catch let e as NSError {` → `catch {` and the binding as the body's first line.
        let indent = Self.indentation(of: last, in: converter) + "    "
        edits.append(
            Edit(
                start: last.catchKeyword.endPositionBeforeTrailingTrivia.utf8Offset,
                end: last.body.leftBrace.positionAfterSkippingLeadingTrivia.utf8Offset, text: " "))
        edits.append(
            Edit(
                start: last.body.leftBrace.endPositionBeforeTrailingTrivia.utf8Offset,
                end: last.body.leftBrace.endPositionBeforeTrailingTrivia.utf8Offset,
                text: "\n\(indent)\(words[0]) \(name) = error as NSError"))
        return .visitChildren
    }

    /// The methods named by `#selector`s that stay (not in a selector observer the class rewrite
    /// turns into a closure: those are recognized by their shape, as `ObserverRewrite` does).
    static func namesOfUnrewrittenSelectors(in tree: SourceFileSyntax) -> Set<String> {
        let finder = SelectorFinder(viewMode: .sourceAccurate)
        finder.walk(tree)
        return Set(
            finder.selectors.compactMap { selector in
                let call = selector.parent?.parent?.parent?.as(FunctionCallExprSyntax.self)
                let isObserver =
                    call.map { call in
                        (call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "addObserver")
                            && call.arguments.map({ $0.label?.text }) == [nil, "selector", "name", "object"]
                            && call.arguments.first?.expression.trimmedDescription == "self"
                    } ?? false
                return isObserver ? nil : selector.arguments.first.map { ObserverRewrite.methodName($0.expression) }
            })
    }

    /// The spaces before the first token of the line a node starts on.
    static func indentation(of node: some SyntaxProtocol, in converter: SourceLocationConverter) -> String {
        let column = node.startLocation(converter: converter).column
        let line = converter.sourceLines[node.startLocation(converter: converter).line - 1]
        let prefix = line.prefix(column - 1)
        return String(prefix.prefix { $0 == " " || $0 == "\t" })
    }
}

/// The classes and extensions of a source, nested ones too.
final class TypeFinder: SyntaxVisitor {
    var classes: [ClassDeclSyntax] = []
    var extensions: [ExtensionDeclSyntax] = []

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        classes.append(node)
        return .visitChildren
    }

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        extensions.append(node)
        return .visitChildren
    }
}
