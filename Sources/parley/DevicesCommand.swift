import ArgumentParser
import Audio
import Foundation
import Logging

/// `parley devices`: the sinks and sources `--sink` and `--source` accept.
struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the audio server's speakers (sinks) and microphones (sources).",
        discussion: """
            The names in the first column are what --sink and --source accept; the server's \
            defaults are marked. Monitors hear what a sink plays. The echo canceller a \
            conversation with --echo-cancel on loads is marked as Parley's.
            """)

    @OptionGroup var common: CommonOptions

    @Flag(help: "Print one JSON object per device instead of a table.")
    var json = false

    func run() async throws {
        try await reportingFailure {
            let devices = try await NoAudioServer.rephrasing(nil) {
                try await AudioSession.devices(server: common.server, logger: Logger(label: "parley.devices"))
            }
            json ? try printJSON(devices) : try printTable(devices)
        }
    }

    private func printJSON(_ devices: [AudioDevice]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for device in devices { try StandardOutput.print(String(decoding: try encoder.encode(device), as: UTF8.self)) }
    }

    private func printTable(_ devices: [AudioDevice]) throws {
        let table = TextTable(header: ["name", "kind", "default", "format", "description"])
        for device in devices {
            var kind = device.kind == .sink ? "sink" : device.isMonitor ? "source (monitor)" : "source"
            if device.name.hasPrefix("\(EchoCanceller.prefix).") { kind += ", Parley's echo canceller" }
            table.add([device.name, kind, device.isDefault ? "yes" : "-",
                       "\(device.sampleRate) Hz, \(device.channels) ch", device.description])
        }
        try StandardOutput.print(table.render(), terminator: "")
    }
}
