import AudioSessionSound
import Foundation

// What player nodes are given to play (EN4): buffers, and files fed a piece at a time, sent to the
// render side in the order they were scheduled; and what comes back (completions).
extension AVAudioEngine {
    /// A scheduled segment's handler and what it counts for.
    struct Completion {
        let type: AVAudioPlayerNodeCompletionCallbackType
        let handler: AVAudioPlayerNodeCompletionHandler?
        let player: ObjectIdentifier
        var frames: Int
    }

    /// How far ahead of the render thread a file is decoded: an hour-long file costs what a
    /// minute-long one does (SO2's rule, for `scheduleFile`).
    static let fileAhead = 96_000
    static let fileChunk = 24_000

    /// A buffer scheduled on a player: queued after what was scheduled before (a file still
    /// being fed among it); `interrupts` drops what waits.
    func schedule(
        on node: AVAudioPlayerNode, block: SampleBlock, loops: Bool, interrupts: Bool, atLoop: Bool, at: Int64?,
        type: AVAudioPlayerNodeCompletionCallbackType, handler: AVAudioPlayerNodeCompletionHandler?
    ) {
        let dropped = locked { () -> [PlayerFeed.FileItem] in
            let token = newToken(type: type, handler: handler, player: node, frames: block.frames)
            let segment = PlayerKernel.Segment(block: block, start: 0, end: block.frames, loops: loops, token: token, at: at)
            let dropped = interrupts ? node.feed.dropAll() : []
            node.feed.items.append(.buffer(segment, interrupts: interrupts, atLoop: atLoop))
            return dropped
        }
        finish(dropped)
        pump(node)
    }

    /// A file (or part of it) scheduled on a player: fed to the render side a piece at a time.
    func schedule(on node: AVAudioPlayerNode, file item: PlayerFeed.FileItem) {
        locked { node.feed.items.append(.file(item)) }
        pump(node)
    }

    /// A token for a segment's handler.
    func newToken(
        type: AVAudioPlayerNodeCompletionCallbackType, handler: AVAudioPlayerNodeCompletionHandler?, player: AVAudioPlayerNode,
        frames: Int
    ) -> Int {
        locked {
            nextToken += 1
            completions[nextToken] = Completion(type: type, handler: handler, player: ObjectIdentifier(player), frames: frames)
            return nextToken
        }
    }

    /// Sends what a player has waiting, in order, a file as far as `fileAhead` allows.
    func pump(_ node: AVAudioPlayerNode) {
        let stopped = locked { () -> Bool in
            while let first = node.feed.items.first {
                switch first {
                case .buffer(let segment, let interrupts, let atLoop):
                    node.feed.queuedFrames += segment.end - segment.start
                    deliver(.schedule(segment, interrupts: interrupts, atLoop: atLoop), to: node)
                    node.feed.items.removeFirst()
                case .file(let item):
                    while item.next < item.end, node.feed.queuedFrames < Self.fileAhead {
                        let count = min(Self.fileChunk, item.end - item.next)
                        let samples = item.reader.read(count)
                        let frames = samples.count / item.reader.channels
                        let last = frames < count || item.next + frames >= item.end
                        let block = SampleBlock(channels: item.reader.channels, capacity: max(1, frames))
                        for frame in 0..<frames {
                            for channel in 0..<block.channels {
                                block.channel(channel)[frame] = samples[frame * block.channels + channel]
                            }
                        }
                        block.frames = frames
                        let token =
                            last
                            ? item.token : newToken(type: .dataConsumed, handler: nil, player: node, frames: frames)
                        if last { completions[item.token]?.frames = frames }
                        item.next = last ? item.end : item.next + frames
                        guard frames > 0 else {
                            // The file held less than its header said: done at once.
                            deliver(
                                .schedule(
                                    .init(block: block, start: 0, end: 0, loops: false, token: token, at: nil), interrupts: false,
                                    atLoop: false), to: node)
                            break
                        }
                        node.feed.queuedFrames += frames
                        deliver(
                            .schedule(
                                .init(
                                    block: block, start: 0, end: frames, loops: false, token: token,
                                    at: item.firstSent ? nil : item.at),
                                interrupts: false, atLoop: false), to: node)
                        item.firstSent = true
                    }
                    guard item.next >= item.end else { return !running }
                    node.feed.items.removeFirst()
                }
            }
            return !running
        }
        if stopped { deliverEvents() }
    }

    /// Every player with a file still being fed (the messenger, once per tick).
    func feedFiles() {
        let feeding = withGraph { graph in
            graph.nodes.values.compactMap { $0 as? AVAudioPlayerNode }.filter { $0.feed.items.contains { $0.isFile } }
        }
        for node in feeding { pump(node) }
    }

    /// Sends a command to a player; while no render thread runs, the control side takes it itself.
    func send(_ command: PlayerKernel.Command, to node: AVAudioPlayerNode) {
        var dropped: [PlayerFeed.FileItem] = []
        let stopped = locked { () -> Bool in
            if case .stop = command { dropped = node.feed.dropAll() }
            deliver(command, to: node)
            return !running
        }
        finish(dropped)
        if stopped { deliverEvents() }
    }

    /// Under the lock: the command into the player's ring (taken at once while nothing renders).
    private func deliver(_ command: PlayerKernel.Command, to node: AVAudioPlayerNode) {
        if !node.player.send(command) { AVAudioNode.report("\(node.nodeName): over 1,024 commands wait; this one is dropped") }
        if !running { node.player.takeCommands(context) }
    }

    /// Files dropped before they were fed whole: their handlers, as a stop calls them.
    private func finish(_ items: [PlayerFeed.FileItem]) {
        let handlers = locked { items.compactMap { completions.removeValue(forKey: $0.token) } }
        for entry in handlers { entry.handler?(entry.type) }
    }

    /// Calls the handlers of what the render side finished (on the caller's thread, outside the lock).
    func deliverEvents() {
        var due: [(AVAudioPlayerNodeCompletionCallbackType, AVAudioPlayerNodeCompletionHandler)] = []
        let latency = withGraph { graph -> Double in
            while let event = context.events.pop() {
                switch event {
                case .segmentDone(let token, _):
                    guard let entry = completions.removeValue(forKey: token) else { continue }
                    if let player = graph.nodes[entry.player] as? AVAudioPlayerNode { player.feed.queuedFrames -= entry.frames }
                    if let handler = entry.handler { due.append((entry.type, handler)) }
                }
            }
            return loop?.bufferedSeconds ?? 0
        }
        for (type, handler) in due {
            if type == .dataPlayedBack && latency > 0 {
                // Apple's handlers are not @Sendable (iOS code captures its own state in them);
                // the engine calls each once, on its messenger thread.
                let later = UncheckedHandler(call: handler)
                messengerQueue.asyncAfter(deadline: .now() + latency) { later.call(type) }
            } else {
                handler(type)
            }
        }
    }
}

/// A player node's control side: what waits to be sent to its render side, in order.
final class PlayerFeed {
    /// A file being fed: its own reader (the app's AVAudioFile keeps its position), the frames
    /// left, the handler's token (carried by the last piece).
    final class FileItem {
        let reader: SoundFileReader
        var next: Int
        let end: Int
        let at: Int64?
        let token: Int
        var firstSent = false

        init(reader: SoundFileReader, start: Int, end: Int, at: Int64?, token: Int) {
            (self.reader, next, self.end, self.at, self.token) = (reader, start, end, at, token)
        }
    }

    enum Item {
        case buffer(PlayerKernel.Segment, interrupts: Bool, atLoop: Bool)
        case file(FileItem)

        var isFile: Bool {
            if case .file = self { return true }
            return false
        }
    }

    var items: [Item] = []
    /// Frames sent to the render side and not yet done.
    var queuedFrames = 0

    /// Drops everything waiting (a stop, an interrupting buffer): the files among it, whose handlers are due.
    func dropAll() -> [FileItem] {
        defer { items.removeAll() }
        return items.compactMap { if case .file(let item) = $0 { item } else { nil } }
    }
}

/// A handler of the app's, called once on the engine's messenger thread.
struct UncheckedHandler: @unchecked Sendable {
    let call: AVAudioPlayerNodeCompletionHandler
}
