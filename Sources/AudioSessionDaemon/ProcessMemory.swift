import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// A process's resident memory, read from /proc (for the soak command and the benchmarks).
public enum ProcessMemory {
    /// VmRSS of the process in KiB, `nil` when it cannot be read (no such process, no /proc).
    public static func residentKiB(of pid: Int32) -> Int? {
        guard let file = fopen("/proc/\(pid)/status", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix("VmRSS:") else { continue }
            return text.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        }
        return nil
    }
}
