/// Reads values written by `WireWriter`. Every read checks what is left, so any byte string
/// gives values or a `WireError`, never a crash or an allocation larger than the input.
public struct WireReader: Sendable {
    private let bytes: [UInt8]
    private var position: Int

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.position = 0
    }

    /// Bytes not read yet.
    public var remaining: Int { bytes.count - position }

    public mutating func readUInt8(_ field: @autoclosure () -> String) throws(WireError) -> UInt8 {
        try need(1, field())
        defer { position += 1 }
        return bytes[position]
    }

    public mutating func readBool(_ field: @autoclosure () -> String) throws(WireError) -> Bool {
        switch try readUInt8(field()) {
        case 0: return false
        case 1: return true
        case let other: throw WireError(.badValue, "\(field()): \(other) is not a boolean (0 or 1)")
        }
    }

    public mutating func readUInt16(_ field: @autoclosure () -> String) throws(WireError) -> UInt16 {
        UInt16(truncatingIfNeeded: try readBigEndian(2, field()))
    }

    public mutating func readUInt32(_ field: @autoclosure () -> String) throws(WireError) -> UInt32 {
        UInt32(truncatingIfNeeded: try readBigEndian(4, field()))
    }

    public mutating func readInt32(_ field: @autoclosure () -> String) throws(WireError) -> Int32 {
        Int32(bitPattern: try readUInt32(field()))
    }

    public mutating func readUInt64(_ field: @autoclosure () -> String) throws(WireError) -> UInt64 {
        try readBigEndian(8, field())
    }

    public mutating func readInt(_ field: @autoclosure () -> String) throws(WireError) -> Int {
        Int(try readInt32(field()))
    }

    /// A finite double; NaN and infinities are refused (no engine value takes them).
    public mutating func readDouble(_ field: @autoclosure () -> String) throws(WireError) -> Double {
        let value = Double(bitPattern: try readUInt64(field()))
        guard value.isFinite else { throw WireError(.badValue, "\(field()): \(value) is not a finite number") }
        return value
    }

    public mutating func readString(_ field: @autoclosure () -> String) throws(WireError) -> String {
        let count = Int(try readUInt32(field()))
        try need(count, field())
        let slice = bytes[position..<position + count]
        position += count
        guard let string = String(validating: slice, as: UTF8.self) else {
            throw WireError(.badValue, "\(field()): not UTF-8")
        }
        return string
    }

    public mutating func readOptional<T>(
        _ field: @autoclosure () -> String, _ body: (inout WireReader) throws(WireError) -> T
    ) throws(WireError) -> T? {
        guard try readBool(field()) else { return nil }
        return try body(&self)
    }

    /// Reads a count, then that many elements. A count larger than the bytes left could
    /// hold (every element takes at least one byte) is refused before anything is allocated.
    public mutating func readArray<T>(
        _ field: @autoclosure () -> String, _ body: (inout WireReader) throws(WireError) -> T
    ) throws(WireError) -> [T] {
        let count = Int(try readUInt32(field()))
        guard count <= remaining else {
            throw WireError(.truncated, "\(field()): \(count) elements announced, \(remaining) bytes left")
        }
        var values: [T] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(try body(&self)) }
        return values
    }

    /// An element of a fixed table by its index (categories, modes, port types …).
    public mutating func readCase<T>(_ field: @autoclosure () -> String, of table: [T]) throws(WireError) -> T {
        let index = Int(try readUInt8(field()))
        guard index < table.count else { throw WireError(.unknownTag, "\(field()): no case \(index)") }
        return table[index]
    }

    /// Fails unless every byte was read.
    public func finish(_ message: @autoclosure () -> String) throws(WireError) {
        guard remaining == 0 else { throw WireError(.trailingBytes, "\(message()): \(remaining) bytes after the end") }
    }

    private mutating func need(_ count: Int, _ field: String) throws(WireError) {
        guard count <= remaining else {
            throw WireError(.truncated, "\(field): needs \(count) bytes, \(remaining) left")
        }
    }

    private mutating func readBigEndian(_ count: Int, _ field: String) throws(WireError) -> UInt64 {
        try need(count, field)
        var value: UInt64 = 0
        for offset in 0..<count { value = value << 8 | UInt64(bytes[position + offset]) }
        position += count
        return value
    }
}
