import AudioSessionSound
import Foundation

/// SPEC EN9 measured: the engine's render graph (AudioSessionSound's, what AVAudioEngine's render
/// thread runs) at a 10 ms IO cycle — CPU per second of audio for 1, 8 and 32 looping player
/// nodes through a stereo mixer, and for a player through a TimePitch at 1.5× — and, on a real
/// server with the other core kept busy by the script, late cycles of a render loop at 5 ms.
enum EngineBench {
    static func run(address: String, seconds: Double) throws {
        for players in [1, 8, 32] {
            let cpu = try renderCost(players: players, timePitch: false)
            print(String(format: "render, %2d player nodes → mixer, 10 ms cycles: %.3f ms CPU per second of audio", players, cpu))
        }
        let stretch = try renderCost(players: 1, timePitch: true)
        print(String(format: "render, 1 player node → TimePitch 1.5× → mixer: %.3f ms CPU per second of audio", stretch))
        try lateCycles(address: address, seconds: seconds)
    }

    /// A second of a 440 Hz stereo sine at 48 kHz.
    static func loop() -> SampleBlock {
        let block = SampleBlock(channels: 2, capacity: 48_000)
        for frame in 0..<48_000 {
            let value = 0.1 * Float(sin(2 * Double.pi * 440 * Double(frame) / 48_000))
            block.channel(0)[frame] = value
            block.channel(1)[frame] = value
        }
        block.frames = 48_000
        return block
    }

    /// The plan: `players` looping player kernels (each its own volume) into a stereo mixer.
    static func plan(players: Int, timePitch: Bool, context: RenderContext) throws -> (RenderStep, [PlayerKernel]) {
        let block = loop()
        var kernels: [PlayerKernel] = []
        var links: [RenderLink] = []
        for index in 0..<players {
            let player = PlayerKernel()
            _ = player.send(
                .schedule(
                    .init(block: block, start: 0, end: 48_000, loops: true, token: index, at: nil), interrupts: false,
                    atLoop: false))
            _ = player.send(.play)
            player.takeCommands(context)
            kernels.append(player)
            var step = try RenderStep(
                name: "player \(index)", kernel: player, channels: 2, sampleRate: 48_000, capacity: 4_096, inputs: [], tap: nil)
            if timePitch {
                let stretch = TimePitchKernel()
                stretch.rate = 1.5
                let link = try RenderLink(source: step, bus: 0, toRate: 48_000, mixing: MixingParameters(), capacity: 4_096)
                step = try RenderStep(
                    name: "time pitch", kernel: stretch, channels: 2, sampleRate: 48_000, capacity: 4_096, inputs: [link],
                    tap: nil)
            }
            let mixing = MixingParameters()
            mixing.volume = 1 / Float(players)
            links.append(try RenderLink(source: step, bus: index, toRate: 48_000, mixing: mixing, capacity: 4_096))
        }
        let mixer = try RenderStep(
            name: "mixer", kernel: MixerKernel(), channels: 2, sampleRate: 48_000, capacity: 4_096, inputs: links, tap: nil)
        return (mixer, kernels)
    }

    /// Thread CPU milliseconds per second of audio rendered in 480-frame cycles (60 s of audio).
    static func renderCost(players: Int, timePitch: Bool) throws -> Double {
        let context = RenderContext()
        let (root, _) = try plan(players: players, timePitch: timePitch, context: context)
        for _ in 0..<100 { root.pull(480, context) }  // warm up
        let cycles = 6_000
        let start = threadCPU()
        for _ in 0..<cycles {
            context.slice &+= 1
            root.pull(480, context)
        }
        let seconds = Double(cycles * 480) / 48_000
        let cpu = (threadCPU() - start) * 1_000 / seconds
        // The work was done: the mix is the players' sine (peak 0.1), not silence.
        let peak = (0..<480).map { abs(root.output.channel(0)[$0]) }.max() ?? 0
        guard peak > 0.05 else { throw MediaError("the rendered mix is silent (peak \(peak)): nothing was measured") }
        return cpu
    }

    static func threadCPU() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// A render loop on the server at 5 ms cycles for `seconds`: its late cycles (underruns on the way).
    static func lateCycles(address: String, seconds: Double) throws {
        let context = RenderContext()
        let (root, _) = try plan(players: 8, timePitch: false, context: context)
        let output = try SampleOutput(
            endpoint: .soundServer(address), app: "engine-bench", role: "music", channels: 2, sampleRate: 48_000,
            bufferDuration: 0.005)
        let loop = RenderLoop(output: output, channels: 2, sampleRate: 48_000, frames: 240, context: context)
        loop.install(RenderPlan(root: root, kernels: []))
        guard loop.start() else { throw MediaError("the render thread did not start") }
        usleep(UInt32(seconds * 1_000_000))
        loop.stop()
        print(
            "render loop on the server, 8 player nodes, 5 ms cycles, \(Int(seconds)) s with the other core busy: "
                + "\(loop.lateCycles) late cycles of \(loop.cycles) (target 0)")
    }
}
