import AudioSessionWire

/// The wire decoder is total: any bytes give a message or an error. Each input is decoded as
/// a client and a server payload, and fed as a byte stream to the frame decoder; a decoded
/// message must encode back to the same bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let message = try? ClientMessage(decoding: bytes) {
        precondition(try! ClientMessage(decoding: message.encoded()) == message, "client message does not round-trip")
    }
    if let message = try? ServerMessage(decoding: bytes) {
        precondition(try! ServerMessage(decoding: message.encoded()) == message, "server message does not round-trip")
    }
    var frames = FrameDecoder(maximumSize: 4096)
    frames.append(bytes)
    while let payload = try? frames.next() { _ = try? ClientMessage(decoding: payload) }
    return 0
}
