#!/usr/bin/env bash
# Issue 58, end to end, as a user ports an app: the app's own package, depending on this one by
# path, holding a class (Corpus/EpisodeQueue.swift) whose #selector observers are in an
# extension in another file (Corpus/EpisodeQueue+Observing.swift), and a main.swift that posts
# the session's notifications and removes one observer by name. In order:
#   1. `swift build` in the app's package fails on the app's own #selector, after building every
#      module it depends on; so no .build/debug link is made (SwiftPM makes it only after a build
#      that succeeds): the modules are only in .build/TRIPLE/debug;
#   2. in the app's directory, `audiosession port --fix Sources/` finds those modules by itself:
#      exit 0, "the fixed files build here", type-checked against that build;
#   3. `swift build` succeeds, and the app hears what it observes and not the observer it removed.
# The app's build directory is Compatibility's (run after Compatibility's stage, which built every
# module this one needs: a fresh build of them costs 75 s of CPU on the test command's critical
# path), and the app lives inside it, so the assistant's search upward from the app finds it as
# it finds an app's own .build. Its .build/debug link is removed first, as before a first build.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
build="$repo/Compatibility/.build"
app="$build/scratch-app"
[ -d "$build" ] || { echo "Compatibility is not built (swift build --package-path Compatibility)"; exit 1; }

rm -rf "$app"
mkdir -p "$app/Sources/QueueApp"
# This package's identity is its directory's name (as Compatibility/Package.swift says).
identity=$(basename "$repo" | tr '[:upper:]' '[:lower:]')
cat > "$app/Package.swift" << MANIFEST
// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "queue-app",
    dependencies: [.package(path: "$repo")],
    targets: [
        .executableTarget(name: "QueueApp", dependencies: [.product(name: "AVFoundation", package: "$identity")])
    ],
    swiftLanguageModes: [.v5]
)
MANIFEST
cp "$repo/Tools/PortingAssistant/Corpus/EpisodeQueue.swift" "$repo/Tools/PortingAssistant/Corpus/EpisodeQueue+Observing.swift" \
    "$app/Sources/QueueApp/"
cat > "$app/Sources/QueueApp/main.swift" << 'MAIN'
import AVFoundation

// The queue screen observes interruptions and route changes, then stops following routes.
let queue = EpisodeQueue()
NotificationCenter.default.post(name: AVAudioSession.interruptionNotification, object: nil)
NotificationCenter.default.post(name: AVAudioSession.routeChangeNotification, object: nil)
queue.stopFollowingRoutes()
NotificationCenter.default.post(name: AVAudioSession.routeChangeNotification, object: nil)
NotificationCenter.default.post(name: AVAudioSession.interruptionNotification, object: nil)
print("interruptions \(queue.pausedForInterruption), route changes \(queue.routeChecks)")
MAIN
cd "$app"
rm -f "$build/debug"

# 1. The first build fails on the app's own code.
if swift build --scratch-path "$build" > "$app/first-build.log" 2>&1; then
    echo "the app's first build passed: its #selector should not build on Linux"
    exit 1
fi
grep -q "EpisodeQueue+Observing.swift:.*error: '#selector' can only be used with the Objective-C runtime" "$app/first-build.log" \
    || { cat "$app/first-build.log"; echo "the app's first build failed, but not on its #selector"; exit 1; }
[ ! -e "$build/debug" ] || { echo "a failed build made .build/debug: the assistant's search is not tested"; exit 1; }

# 2. The assistant, from the app's directory, against that build's modules.
status=0
"$repo/.build/debug/audiosession" port --fix Sources/ > "$app/port.log" 2>&1 || status=$?
[ "$status" = 0 ] && tail -n 1 "$app/port.log" | grep -q "nothing left for a person; the fixed files build here$" \
    || { cat "$app/port.log"; echo "audiosession port --fix in the app's package exited $status"; exit 1; }
# Against the app's own build (not this checkout's, which the assistant would fall back to).
grep -q "^audiosession port: type-checking against $build/[^/]*/debug/Modules$" "$app/port.log" \
    || { cat "$app/port.log"; echo "audiosession port did not type-check against the app's own build"; exit 1; }

# 3. It builds, and hears what it observes.
swift build --scratch-path "$build" > "$app/second-build.log" 2>&1 \
    || { cat "$app/second-build.log"; echo "the fixed app does not build"; exit 1; }
heard=$("$build/debug/QueueApp")
[ "$heard" = "interruptions 2, route changes 1" ] || { echo "the fixed app heard: $heard"; exit 1; }
echo "the app's first build failed on its #selector; $(tail -n 1 "$app/port.log"); it builds and hears $heard"
