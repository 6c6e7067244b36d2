import Synchronization

/// A bounded single-producer single-consumer queue (JACK's ringbuffer, PulseAudio's clients):
/// one thread pushes, one pops, neither ever waits nor allocates once it is made. The engine's
/// control side sends its render thread commands through one, and the render thread tells the
/// control side what it did (a buffer consumed, an underrun) through another (SPEC EN9).
package final class SingleProducerRing<Element>: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<Element?>
    private let capacity: Int
    /// Next slot to read (the consumer's) and next to write (the producer's), counting up forever.
    private let head = Atomic<Int>(0)
    private let tail = Atomic<Int>(0)

    package init(capacity: Int) {
        self.capacity = capacity
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: nil, count: capacity)
    }

    deinit {
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    /// From the producer: false when full (nothing is dropped silently: the caller decides).
    @discardableResult
    package func push(_ element: Element) -> Bool {
        let tail = tail.load(ordering: .relaxed)
        guard tail - head.load(ordering: .acquiring) < capacity else { return false }
        slots[tail % capacity] = element
        self.tail.store(tail + 1, ordering: .releasing)
        return true
    }

    /// From the consumer: the oldest element, or nil when empty.
    package func pop() -> Element? {
        let head = head.load(ordering: .relaxed)
        guard head < tail.load(ordering: .acquiring) else { return nil }
        let element = slots[head % capacity].take()
        self.head.store(head + 1, ordering: .releasing)
        return element
    }

    package var isEmpty: Bool { head.load(ordering: .acquiring) >= tail.load(ordering: .acquiring) }
}
