import AudioSession
import AudioSessionSound
import Foundation

// The engine's running side: start and stop with the session (EN5), interruptions (EN6),
// configuration changes (EN7), voice processing's switch (EN8), and the hand-over to the render
// thread: compiled plans, commands, and the messenger that takes back what it did (EN9).
extension AVAudioEngine {
    /// Starts rendering (SPEC EN5): the session's output starts (IO1: it activates the session),
    /// then the app's stream and the render thread. - Throws: an NSError — what `setActive(true)`
    /// gets at this moment when the activation is refused (during a call `insufficientPriority`,
    /// A3), the reason a graph cannot run (a bad connection, the input node where there is no
    /// input, an input chain in another format than the hardware's, naming both), nothing is then
    /// played and `isRunning` stays false.
    public func start() throws {
        lock.lock()
        defer { lock.unlock() }
        guard !running else { return }
        if let problem = pendingGraphError {
            pendingGraphError = nil
            throw Self.error(-10_875, problem)
        }
        refreshHardwareFormats()
        let usesOutput = graph.outputNode.map { graph.connection(into: $0, bus: 0) != nil } ?? false
        var usesInput = voiceProcessing
        if let input = graph.inputNode {
            usesInput =
                usesInput || graph.connections.contains { $0.source === input }
                || graph.taps.keys.contains { $0.node == ObjectIdentifier(input) }
        }
        if usesInput {
            guard let hardware = graph.hardwareInput else {
                throw Self.error(
                    -10_868, "the input node is part of the graph, but the session has no input (its category or route has none)")
            }
            // EN7: a chain made for another input format throws until it is connected again.
            for connection in graph.connections where connection.source === graph.inputNode {
                guard connection.format.sampleRate == hardware.sampleRate, connection.format.channelCount == hardware.channelCount
                else {
                    throw Self.error(
                        -10_868,
                        "the input node's connection to \(connection.destination.nodeName) is in \(connection.format), "
                            + "but the input is now \(hardware): connect it again")
                }
            }
        }
        guard usesOutput || usesInput else {
            throw Self.error(
                -10_875, "nothing to run: connect a node to the output node (or use mainMixerNode), or tap the input node")
        }
        // IO1, IO2: output first, then input; a refusal undoes what was started.
        do throws(SessionError) {
            if usesOutput { try session.reportOutputRunning(true) }
            if usesInput { try session.reportInputRunning(true) }
        } catch {
            if usesOutput { try? session.reportOutputRunning(false) }
            throw error.nsError
        }
        let made: RenderLoop
        do throws(MediaError) {
            made = try makeLoop(output: usesOutput, input: usesInput)
        } catch {
            reportStopped(output: usesOutput, input: usesInput)
            throw Self.error(-10_875, "the engine's streams could not open: \(error.description)")
        }
        // EN6: what an interruption paused plays on.
        for player in pausedByInterruption { player.setPlaying(true) }
        pausedByInterruption.removeAll()
        readTarget(of: made)
        guard made.start() else {
            reportStopped(output: usesOutput, input: usesInput)
            throw Self.error(-10_875, "the render thread could not start")
        }
        loop = made
        runningIO = (usesOutput, usesInput)
        running = true
        startMessenger()
    }

    /// The least a sound server's stream of the engine buffers (twice the IO buffer if more): the
    /// render thread fills it on its own clock (EN9), so `play()` is heard that much later — 150 ms,
    /// as for the timer-fed players, made it 61 ms (`pulse-bench --engine`).
    static let minimumOutputBuffer = 0.08

    /// The render thread with its streams: the output's and the capture's, as the graph uses them.
    private func makeLoop(output usesOutput: Bool, input usesInput: Bool) throws(MediaError) -> RenderLoop {
        let app = session.appID.rawValue
        var output: SampleOutput?
        let hardware = graph.hardwareOutput
        if usesOutput {
            // A sound server's stream is made at each start and let go at each stop (EN5: nothing
            // stays on the server); the simulated device's files are kept while the format is, so
            // that a restart appends to them (as a device goes on playing) rather than starting anew.
            if let kept = simulatedOutput, kept.format == (Int(hardware.channelCount), Int(hardware.sampleRate)) {
                output = kept.output
            } else {
                let made = try SampleOutput(
                    endpoint: endpoint, app: app, role: voiceProcessing ? "phone" : session.streamRole,
                    channels: Int(hardware.channelCount), sampleRate: Int(hardware.sampleRate),
                    bufferDuration: session.ioBufferDuration, minimumBuffer: Self.minimumOutputBuffer,
                    echoCancelled: voiceProcessing)
                if case .files = endpoint {
                    simulatedOutput?.output.close()
                    simulatedOutput = (made, (Int(hardware.channelCount), Int(hardware.sampleRate)))
                }
                output = made
            }
        }
        var input: (stream: SampleInput, kernel: InputKernel)?
        if usesInput, let format = graph.hardwareInput, let node = graph.inputNode {
            let stream = try SampleInput(
                endpoint: endpoint, app: app, channels: Int(format.channelCount), sampleRate: Int(format.sampleRate),
                bufferDuration: session.ioBufferDuration, echoCancelled: voiceProcessing)
            node.input.configure(channels: Int(format.channelCount))
            input = (stream, node.input)
        }
        let rate = usesOutput ? hardware.sampleRate : graph.hardwareInput?.sampleRate ?? hardware.sampleRate
        let made = RenderLoop(
            output: output, input: input, channels: Int(hardware.channelCount), sampleRate: Int(rate),
            frames: Int((session.ioBufferDuration * rate).rounded()), context: context)
        made.install(try graph.compile(capacity: graph.capacity))
        return made
    }

    /// IO reports undone (a start that failed half way, a stop).
    private func reportStopped(output: Bool, input: Bool) {
        if output { try? session.reportOutputRunning(false) }
        if input { try? session.reportInputRunning(false) }
    }

    /// Stops the render thread and lets the stream go (nothing stays on the server), then tells
    /// the session its output stopped.
    func stopRendering() {
        let stopped = withGraph { _ -> (output: Bool, input: Bool)? in
            guard running else { return nil }
            loop?.stop()
            // EN9: underruns are counted and said, never waited out.
            if let loop, loop.lateCycles > 0 {
                AVAudioNode.report(
                    "\(loop.lateCycles) of \(loop.cycles) render cycles woke a whole IO buffer late (underruns on the way)")
            }
            loop = nil
            running = false
            messenger?.cancel()
            messenger = nil
            return runningIO
        }
        if let stopped { reportStopped(output: stopped.output, input: stopped.input) }
    }

    /// The plan again after an edit, handed to the render thread while it runs.
    func recompile() {
        withGraph { graph in
            guard running, let loop else { return }
            do throws(MediaError) {
                loop.install(try graph.compile(capacity: graph.capacity))
            } catch {
                AVAudioNode.report("the graph could not be compiled: \(error.description)")
            }
        }
    }

    /// EN6: an interruption stops a running engine at once; its playing player nodes are paused,
    /// what they scheduled kept, and `start()` plays them on.
    func interrupted() {
        let players = withGraph { graph -> [AVAudioPlayerNode] in
            guard running else { return [] }
            return graph.nodes.values.compactMap { $0 as? AVAudioPlayerNode }.filter(\.isPlayingNow)
        }
        for player in players { player.setPlaying(false) }
        locked { pausedByInterruption += players }
        stopRendering()
        deliverEvents()
    }

    /// EN7: the route's formats again; a change of rate or channels stops a running engine and is
    /// posted as a configuration change, off the main queue.
    func routeChanged() {
        let before = withGraph { graph in (graph.hardwareOutput, graph.hardwareInput) }
        refreshHardwareFormats()
        let (changed, wasRunning) = withGraph { graph -> (Bool, Bool) in
            let changed =
                before.0.sampleRate != graph.hardwareOutput.sampleRate
                || before.0.channelCount != graph.hardwareOutput.channelCount
                || before.1?.sampleRate != graph.hardwareInput?.sampleRate
                || before.1?.channelCount != graph.hardwareInput?.channelCount
            return (changed, running)
        }
        guard changed, wasRunning else { return }
        stopRendering()
        deliverEvents()
        DispatchQueue.global().async {
            NotificationCenter.default.post(name: .AVAudioEngineConfigurationChange, object: self)
        }
    }

    /// The route's formats (EN5): the session's sample rate, its output and input channels (1 or 2
    /// of them: the engine renders mono or stereo).
    func refreshHardwareFormats() {
        // One status read (through a daemon, one round trip) for the rate and both channel counts;
        // the session's properties (its last known status) only when it cannot be read now.
        let status = try? session.status()
        let sampleRate = status?.sampleRate ?? session.sampleRate
        let rate = sampleRate > 0 ? sampleRate : 48_000
        let outputs = AVAudioChannelCount(
            min(2, max(1, status.map { (try? $0.outputChannels.get()) ?? 0 } ?? session.outputNumberOfChannels)))
        let inputs = status.map { (try? $0.inputChannels.get()) ?? 0 } ?? session.inputNumberOfChannels
        withGraph { graph in
            graph.hardwareOutput = AVAudioFormat(standardFormatWithSampleRate: rate, channels: outputs)!
            graph.hardwareInput =
                inputs > 0
                ? AVAudioFormat(standardFormatWithSampleRate: rate, channels: AVAudioChannelCount(min(2, inputs))) : nil
        }
    }

    func refreshHardwareFormatsWhileStopped() {
        guard !isRunning else { return }
        refreshHardwareFormats()
    }

    /// EN8: only while stopped.
    func setVoiceProcessing(_ enabled: Bool) throws {
        try locked {
            guard !running else {
                throw Self.error(-10_851, "setVoiceProcessingEnabled while the engine runs: stop it first")
            }
            voiceProcessing = enabled
        }
    }

    /// Every 5 ms while running: completions, taps, the simulated device's gain and port, old plans.
    func startMessenger() {
        let timer = DispatchSource.makeTimerSource(queue: messengerQueue)
        timer.schedule(deadline: .now(), repeating: .milliseconds(5), leeway: .milliseconds(1))
        timer.setEventHandler { [weak self] in self?.messengerTick() }
        timer.resume()
        messenger = timer
    }

    private func messengerTick() {
        deliverEvents()
        feedFiles()
        let (taps, loop) = withGraph { graph in (Array(graph.taps.values), self.loop) }
        for tap in taps {
            while let (samples, sampleTime) = tap.recorder.next() {
                guard
                    let buffer = AVAudioPCMBuffer(
                        pcmFormat: tap.format, frameCapacity: AVAudioFrameCount(tap.recorder.bufferSize))
                else { break }
                buffer.frameLength = buffer.frameCapacity
                for channel in 0..<min(samples.count, Int(tap.format.channelCount)) {
                    for frame in 0..<samples[channel].count {
                        buffer.setSample(samples[channel][frame], channel: channel, frame: frame)
                    }
                }
                tap.block(buffer, AVAudioTime(hostTime: AVAudioTime.now, sampleTime: sampleTime, atRate: tap.format.sampleRate))
            }
        }
        guard let loop else { return }
        if AVAudioTime.now - lastTargetRead > 20_000_000 { readTarget(of: loop) }
        locked { loop.collect() }
    }

    /// The simulated device only: the session's gain and output port, for the render thread.
    func readTarget(of loop: RenderLoop) {
        lastTargetRead = AVAudioTime.now
        guard case .files = endpoint, let status = try? session.status() else { return }
        let port = status.isOutputRunning ? status.currentRoute.outputs.first?.uid : nil
        // P3: without permission the input records silence.
        let inputGain = status.recordsSilence ? 0 : Float(status.inputGain)
        loop.simulatedTarget.withLock { $0 = (Float(status.outputGain), port, inputGain) }
    }

    // MARK: Taps

    /// Why a tap cannot be installed, or nil once it is.
    func installTap(
        on node: AVAudioNode, bus: AVAudioNodeBus, bufferSize: AVAudioFrameCount, format: AVAudioFormat?,
        block: @escaping AVAudioNodeTapBlock
    ) -> String? {
        let problem = withGraph { graph -> String? in
            guard bus >= 0, bus < node.numberOfOutputs else { return "the node has no output bus \(bus)" }
            let key = EngineGraph.TapKey(node: ObjectIdentifier(node), bus: bus)
            guard graph.taps[key] == nil else { return "there is already a tap on bus \(bus); remove it first" }
            let busFormat = graph.outputFormat(of: node, bus: bus)
            guard busFormat.sampleRate > 0 else { return "the bus has no format (no input in the session's category or route)" }
            if let format, format.sampleRate != busFormat.sampleRate || format.channelCount != busFormat.channelCount {
                return "the tap's format \(format) is not the bus's \(busFormat)"
            }
            let size = max(1, min(Int(bufferSize), Int(busFormat.sampleRate)))
            graph.taps[key] = .init(
                recorder: TapRecorder(channels: Int(busFormat.channelCount), sampleRate: busFormat.sampleRate, bufferSize: size),
                format: format ?? busFormat, block: block)
            return nil
        }
        if problem == nil { recompile() }
        return problem
    }

    func removeTap(on node: AVAudioNode, bus: AVAudioNodeBus) {
        withGraph { graph in _ = graph.taps.removeValue(forKey: .init(node: ObjectIdentifier(node), bus: bus)) }
        recompile()
        // Its block is not called once this returns (unless called from a tap's block itself).
        if DispatchQueue.getSpecific(key: Self.messengerKey) == nil { messengerQueue.sync {} }
    }

    static let messengerKey = DispatchSpecificKey<Bool>()
}
