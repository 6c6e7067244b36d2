import ArgumentParser

/// `audiosession`: run scenario files and the demo.
struct AudioSessionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audiosession",
        abstract: "The iOS audio session model on Linux: run scenarios against the arbiter.",
        subcommands: [Run.self, Demo.self, Status.self, Events.self, System.self, Soak.self, Port.self, Live.self]
    )
}

/// The command's entry point, for its executable (and the release's multi-call binary).
/// Parses `CommandLine.arguments` and runs the subcommand; exits with its status.
public func audiosessionMain() async { await AudioSessionCommand.main() }
