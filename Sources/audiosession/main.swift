import AudioSessionCLI
import AudioSessionDaemonCLI

// `audiosession`, and the daemon when called by the name `audiosessiond`: the release installs
// one binary under both names (issue 31: one copy of the Swift runtime, FoundationEssentials and
// swift-nio instead of two, some 20 MiB less on a device), as busybox does.
if CommandLine.arguments.first?.split(separator: "/").last == "audiosessiond" {
    await audiosessiondMain()
} else {
    await audiosessionMain()
}
