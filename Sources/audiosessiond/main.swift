import AudioSessionDaemonCLI

// `audiosessiond` (README "Running the daemon"); the release installs it as a name of the
// multi-call `audiosession` binary instead (issue 31).
await audiosessiondMain()
