import PropertyBased
import Testing

@testable import AudioSessionEngine
@testable import AudioSessionModel

/// Invariants over long random step sequences (issue: property-based test of the engine).
@Suite("Engine invariants over random step sequences")
struct InvariantTests {
    static let sequences = Gen.int(in: 0...100_000).array(of: 50...400)

    @Test("A2: at most one active non-mixable app session that takes part in arbitration")
    func oneNonMixable() async {
        await propertyCheck(count: 200, input: Self.sequences) { values in
            RandomSteps.replay(values) { _, _, _, engine in
                let nonMixable = engine.activeSessions.filter { engine.sessions[$0].isArbitratedNonMixable }
                #expect(nonMixable.count <= 1)
            }
        }
    }

    @Test("D1: an active session with output, not silenced, is ducked iff another app's duckOthers session is active")
    func duckedIffDucker() async {
        await propertyCheck(count: 200, input: Self.sequences) { values in
            RandomSteps.replay(values) { _, _, _, engine in
                for (app, _) in RandomSteps.apps {
                    guard let status = engine.status(of: app) else { continue }  // departed: freed
                    guard status.isActive, status.category.hasOutput, status.outputGain != 0 else { continue }
                    let ducker = engine.activeSessions.contains {
                        engine.appIDs[$0] != app && engine.sessions[$0].options.contains(.duckOthers)
                    }
                    #expect((status.outputGain == engine.duckLevel) == ducker, "\(app) after \(values)")
                    #expect(status.outputGain == 1 || status.outputGain == engine.duckLevel)
                }
            }
        }
    }

    @Test("I3: no `interruption ended` without an earlier `began`; OA3: no hint `end` without `begin`")
    func endedAfterBegan() async {
        await propertyCheck(count: 200, input: Self.sequences) { values in
            var interrupted: Set<AppID> = []
            var hinted: Set<AppID> = []
            RandomSteps.replay(values) { _, step, outcome, engine in
                for (app, notification) in outcome.notifications {
                    switch notification {
                    case .interruptionBegan:
                        // I5 + I7: an app's own call may reactivate it and see it interrupted again.
                        let ownCall = if case .app(app, _) = step { true } else { false }
                        #expect(interrupted.insert(app).inserted || ownCall, "\(app) told began twice")
                    case .interruptionEnded:
                        #expect(interrupted.remove(app) != nil, "\(app) told ended without began")
                    case .silenceSecondaryAudioHint(.begin):
                        #expect(hinted.insert(app).inserted)
                    case .silenceSecondaryAudioHint(.end):
                        #expect(hinted.remove(app) != nil)
                    case .mediaServicesReset:
                        interrupted.remove(app)
                        hinted.remove(app)
                    default: break
                    }
                }
                // An app reactivating is no longer interrupted (I5) and its hint starts afresh.
                // A departed app's session is gone with everything it was told.
                for app in interrupted where engine.status(of: app)?.isActive ?? true { interrupted.remove(app) }
                for app in hinted where !(engine.status(of: app)?.isActive ?? false) { hinted.remove(app) }
            }
        }
    }

    @Test("A7: a failed step changes nothing and sends nothing (A5 excepted)")
    func failedStepChangesNothing() async {
        await propertyCheck(count: 200, input: Self.sequences) { values in
            RandomSteps.replay(values) { before, step, outcome, engine in
                guard let error = outcome.error, error.code != .isBusy else { return }
                #expect(engine == before, "\(step) failed with \(error) but changed the engine")
                #expect(outcome.effects.isEmpty)
            }
        }
    }

    @Test("Determinism: the same sequence always gives the same outcomes")
    func deterministic() async {
        await propertyCheck(count: 100, input: Self.sequences) { values in
            var first = RandomSteps.engine()
            var second = RandomSteps.engine()
            for value in values {
                let step = RandomSteps.step(value)
                #expect(first.apply(step) == second.apply(step))
            }
            #expect(first == second)
        }
    }

    @Test("Route groups always hold every session under its current configuration")
    func routeGroupsConsistent() async {
        await propertyCheck(count: 100, input: Self.sequences) { values in
            RandomSteps.replay(values) { _, _, _, engine in
                var expected = RouteGroups()
                for index in engine.sessions.indices { expected.insert(index, engine.sessions[index].routingConfig) }
                let actual = Dictionary(uniqueKeysWithValues: engine.routeGroups.groups.map { ($0.config, $0.members) })
                let wanted = Dictionary(uniqueKeysWithValues: expected.groups.map { ($0.config, $0.members) })
                #expect(actual == wanted)
            }
        }
    }

    @Test("RT11: a session is told route-change exactly when its current route changed, with both routes")
    func routeChangesMatchRoutes() async {
        await propertyCheck(count: 150, input: Self.sequences) { values in
            RandomSteps.replay(values) { engineBefore, step, outcome, engine in
                guard step != .system(.mediaServicesReset), step != .system(.wake), outcome.error == nil else { return }
                // A departed app is told nothing: it has no process left to tell.
                for app in engine.apps where engineBefore.isPresent(app) {
                    let before = engineBefore.status(of: app)!.currentRoute
                    let after = engine.status(of: app)!.currentRoute
                    let changes = outcome.notifications(of: app).compactMap { notification -> (Route, Route)? in
                        if case .routeChange(_, let previous, let current) = notification { (previous, current) } else { nil }
                    }
                    if before == after {
                        #expect(changes.isEmpty, "\(app) told of a route change that did not happen: \(step)")
                    } else {
                        #expect(changes.count == 1 && changes[0] == (before, after), "\(app) after \(step)")
                    }
                }
            }
        }
    }

    @Test("RT7, RT8: an override is only ever in force in playAndRecord; a preferred input is always available")
    func routingChoicesStayValid() async {
        await propertyCheck(count: 150, input: Self.sequences) { values in
            RandomSteps.replay(values) { _, _, _, engine in
                for app in engine.apps {
                    let status = engine.status(of: app)!
                    #expect(!status.overridesToSpeaker || status.category == .playAndRecord)
                    if let preferred = status.preferredInput {
                        #expect(status.availableInputs.contains { $0.uid == preferred })
                    }
                }
                let listed = Set(engine.sessionsWithRoutingChoice)
                #expect(listed == Set(engine.sessions.indices.filter { engine.sessions[$0].hasRoutingChoice }))
            }
        }
    }
}

extension InvariantTests {
    @Test(
        "RT8: a plug that brings an input the session may use clears its preference, any other keeps it; only its own call sets one"
    )
    func preferenceFollowsPlugs() async {
        await propertyCheck(count: 200, input: Self.sequences) { values in
            RandomSteps.replay(values) { before, step, outcome, after in
                for app in after.apps {
                    guard let oldIndex = before.indexByApp[app], let newIndex = after.indexByApp[app] else { continue }
                    if case .app(app, .setPreferredInput) = step { continue }
                    // Nothing but the app's own call sets or restores a preference: compared as the engine
                    // keeps it (which accessory), so a full status is made only for a plug (a step's status
                    // for every app made this test 18 s of the test command's CPU).
                    let (kept, keeps) = (before.sessions[oldIndex].preferredInput, after.sessions[newIndex].preferredInput)
                    #expect(keeps == nil || keeps == kept, "\(app) after \(step)")
                    guard case .system(.plug) = step, outcome.error == nil, kept != nil,
                        let old = before.status(of: app), let new = after.status(of: app), let preferred = old.preferredInput
                    else { continue }
                    let known = Set(old.availableInputs.map(\.uid))
                    let plugged = new.availableInputs.contains { !known.contains($0.uid) }
                    if plugged {
                        #expect(new.preferredInput == nil, "\(app) kept \(preferred) after \(step)")
                    } else {
                        #expect(new.preferredInput == preferred, "\(app) lost \(preferred) after \(step)")
                    }
                }
            }
        }
    }
}

/// The engine's own invariant check (`Engine.invariantViolations`), which the soak command and
/// the fuzzer rely on: silent on every reachable state, loud on a broken one.
@Suite("The engine's self-check")
struct SelfCheckTests {
    @Test("No violations after any step of a random sequence")
    func silentOnReachableStates() async {
        await propertyCheck(count: 200, input: InvariantTests.sequences) { values in
            RandomSteps.replay(values) { _, step, _, engine in
                #expect(engine.invariantViolations.isEmpty, "after \(step): \(engine.invariantViolations)")
            }
        }
    }

    @Test("Each planted fault is named by its rule")
    func loudOnPlantedFaults() throws {
        var engine = RandomSteps.engine()
        for app in ["music", "radio"] as [AppID] {
            _ = engine.apply(.app(app, .setCategory(.playback, mode: .default, options: .mixWithOthers)))
            _ = engine.apply(.app(app, .setActive(true)))
        }
        #expect(engine.invariantViolations.isEmpty)

        var twoNonMixable = engine
        for index in twoNonMixable.activeSessions { twoNonMixable.sessions[index].configure(.playback, .default, []) }
        #expect(twoNonMixable.invariantViolations.contains { $0.hasPrefix("A2:") })

        var activeAndInterrupted = engine
        let music = try #require(engine.indexByApp["music"])
        activeAndInterrupted.sessions[music].interruptedBy = .system(.call)
        activeAndInterrupted.interruptedSessions.append(music)
        #expect(activeAndInterrupted.invariantViolations.contains { $0.hasPrefix("I1: music") })

        var untoldGain = engine
        untoldGain.sessions[music].reportedGain = 0.2
        #expect(untoldGain.invariantViolations.contains { $0.hasPrefix("D4: music") })

        var lostActivation = engine
        lostActivation.activeSessions.removeLast()
        #expect(lostActivation.invariantViolations.contains { $0.hasPrefix("activation list") })
    }
}
