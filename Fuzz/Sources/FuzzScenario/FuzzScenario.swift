import Scenarios

/// The scenario parser: any text gives a scenario or a parse error naming a line and column.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        _ = try ScenarioParser.parse(text, file: "fuzz.scn")
    } catch {
        precondition(error.description.hasPrefix("fuzz.scn:"), "a parse error without its place: \(error)")
    }
    return 0
}
