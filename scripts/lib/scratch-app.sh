#!/usr/bin/env bash
# Issue 58, end to end, as a user ports an app: the app's own package, depending on this one by
# path, holding a class (Corpus/EpisodeQueue.swift) whose #selector observers are in an
# extension in another file (Corpus/EpisodeQueue+Observing.swift), and a main.swift that posts
# the session's notifications and removes one observer by name.
#
#   scratch-app.sh build   makes the package in .build/scratch-app and runs `swift build` there:
#                          it must fail on the app's own #selector, after building every module
#                          it depends on (so no .build/debug link is made: the modules are only
#                          in .build/TRIPLE/debug). Run in the test command's background chain.
#   scratch-app.sh port    in the app's directory, `audiosession port --fix Sources/` finds those
#                          modules by itself: exit 0, "the fixed files build here"; then
#                          `swift build` succeeds and the app hears what it observes, and not
#                          the observer it removed.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
app="$repo/.build/scratch-app"

case "${1:-}" in
build)
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
    if swift build > "$app/first-build.log" 2>&1; then
        echo "the app's first build passed: its #selector should not build on Linux"
        exit 1
    fi
    grep -q "EpisodeQueue+Observing.swift:.*error: '#selector' can only be used with the Objective-C runtime" "$app/first-build.log" \
        || { cat "$app/first-build.log"; echo "the app's first build failed, but not on its #selector"; exit 1; }
    [ ! -e "$app/.build/debug" ] || { echo "a failed build made .build/debug: the assistant's search is not tested"; exit 1; }
    echo "the app's first build failed on its #selector, as on any Linux before porting"
    ;;
port)
    cd "$app"
    status=0
    "$repo/.build/debug/audiosession" port --fix Sources/ > "$app/port.log" 2>&1 || status=$?
    [ "$status" = 0 ] && tail -n 1 "$app/port.log" | grep -q "nothing left for a person; the fixed files build here$" \
        || { cat "$app/port.log"; echo "audiosession port --fix in the app's package exited $status"; exit 1; }
    # Against the app's own build (not this checkout's, which the assistant would fall back to).
    grep -q "^audiosession port: type-checking against $app/.build/[^/]*/debug/Modules$" "$app/port.log" \
        || { cat "$app/port.log"; echo "audiosession port did not type-check against the app's own build"; exit 1; }
    swift build > "$app/second-build.log" 2>&1 || { cat "$app/second-build.log"; echo "the fixed app does not build"; exit 1; }
    heard=$("$app/.build/debug/QueueApp")
    [ "$heard" = "interruptions 2, route changes 1" ] || { echo "the fixed app heard: $heard"; exit 1; }
    echo "ported in its own package: $(tail -n 1 "$app/port.log"); it builds and hears $heard"
    ;;
*)
    echo "usage: scripts/lib/scratch-app.sh build|port" >&2
    exit 2
    ;;
esac
