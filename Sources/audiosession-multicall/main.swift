import AudioSessionCLI
import AudioSessionDaemonCLI

// The release's one binary (scripts/install puts it in place as `audiosession`, with
// `audiosessiond` a link to it): the command, and the daemon when called by the name
// `audiosessiond` (issue 31: one copy of the Swift runtime, FoundationEssentials and swift-nio
// instead of two, some 20 MiB less on a device), as busybox does. The development executables
// `audiosession` and `audiosessiond` are each one half, so that `swift run audiosession demo`
// needs nothing but Swift.
if CommandLine.arguments.first?.split(separator: "/").last == "audiosessiond" {
    await audiosessiondMain()
} else {
    await audiosessionMain()
}
