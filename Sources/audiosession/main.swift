import AudioSessionCLI

// `audiosession`, the command alone: what `swift run audiosession demo` builds, with nothing but
// Swift (no libpulse, libyaml or the daemon). The release installs `audiosession-multicall`
// under this name instead, which is also the daemon (scripts/install).
await audiosessionMain()
