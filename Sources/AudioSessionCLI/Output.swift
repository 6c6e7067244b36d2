#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// What the command writes beside its standard output, and the number formats it prints, without
// Foundation's FileHandle and String(format:) (the command links FoundationEssentials only: no
// ICU data in the release, issue 31).

/// Writes `message` and a newline to standard error, whole.
func printError(_ message: String) {
    var bytes = Array((message + "\n").utf8)
    var written = 0
    while written < bytes.count {
        let result = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress! + written, $0.count - written) }
        if result < 0 && errno == EINTR { continue }
        guard result > 0 else { return }
        written += result
    }
    bytes.removeAll()
}

/// Flushes what `print` buffered for standard output.
func flushStandardOutput() { fflush(nil) }

/// `value` with `places` decimals, rounded half away from zero (`%.Nf`); with `sign`, a `+`
/// before values that are not negative (`%+.Nf`).
func decimal(_ value: Double, places: Int, sign: Bool = false) -> String {
    guard value.isFinite else { return "\(value)" }
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
    let whole = Int(scaled / scale)
    var fraction = String(Int(scaled) - whole * Int(scale))
    while fraction.count < places { fraction = "0" + fraction }
    let negative = value < 0 && scaled != 0
    let prefix = negative ? "-" : (sign ? "+" : "")
    return places == 0 ? "\(prefix)\(whole)" : "\(prefix)\(whole).\(fraction)"
}
