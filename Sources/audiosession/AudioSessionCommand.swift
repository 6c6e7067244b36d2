import ArgumentParser

/// `audiosession`: run scenario files and the demo.
@main
struct AudioSessionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audiosession",
        abstract: "The iOS audio session model on Linux: run scenarios against the arbiter.",
        subcommands: [Run.self, Demo.self, Status.self, Events.self, System.self, Soak.self, Port.self, Live.self]
    )
}
