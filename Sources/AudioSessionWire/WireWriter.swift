/// Appends values in the wire's binary form: integers big-endian, doubles as their IEEE bits,
/// strings and arrays prefixed by a UInt32 count (docs/protocol.md "Values").
public struct WireWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init(reservingCapacity capacity: Int = 64) { bytes.reserveCapacity(capacity) }

    public mutating func write(_ value: UInt8) { bytes.append(value) }
    public mutating func write(_ value: Bool) { bytes.append(value ? 1 : 0) }
    public mutating func write(_ value: UInt16) { writeBigEndian(UInt64(value), count: 2) }
    public mutating func write(_ value: UInt32) { writeBigEndian(UInt64(value), count: 4) }
    public mutating func write(_ value: Int32) { write(UInt32(bitPattern: value)) }
    public mutating func write(_ value: UInt64) { writeBigEndian(value, count: 8) }
    public mutating func write(_ value: Double) { write(value.bitPattern) }

    /// An `Int` travels as a 32-bit signed integer (counts and channel numbers).
    public mutating func write(_ value: Int) { write(Int32(clamping: value)) }

    public mutating func write(_ value: String) {
        let utf8 = value.utf8
        write(UInt32(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    /// Writes a presence byte, then the value if present.
    public mutating func write<T>(_ value: T?, _ body: (inout WireWriter, T) -> Void) {
        guard let value else { return write(false) }
        write(true)
        body(&self, value)
    }

    /// Writes the count, then each element.
    public mutating func write<C: Collection>(_ values: C, _ body: (inout WireWriter, C.Element) -> Void) {
        write(UInt32(values.count))
        for value in values { body(&self, value) }
    }

    private mutating func writeBigEndian(_ value: UInt64, count: Int) {
        for shift in stride(from: (count - 1) * 8, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }
}
