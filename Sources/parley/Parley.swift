import ArgumentParser
import Logging
import Foundation

/// `parley`: the offline spoken-dialogue translator and its one-shot tools.
@main
struct Parley: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parley",
        abstract: "An offline spoken-dialogue translator for the terminal.",
        discussion: """
            Two people who share no language take turns at one machine: Parley recognizes \
            what one says, translates it, and speaks the translation to the other. \
            Everything runs on this computer; nothing leaves it.

            Start with `parley doctor` to check the engines, and `parley languages` to see \
            which locales can be recognized, spoken and translated.
            """,
        subcommands: [
            DialogueCommand.self, RoomCommand.self, DoctorCommand.self, LanguagesCommand.self, DevicesCommand.self, ListenCommand.self,
            SayCommand.self, VoicesCommand.self, TranslateCommand.self, DictCommand.self, GlossaryCommand.self, ModelsCommand.self,
        ],
        defaultSubcommand: DialogueCommand.self
    )

    static func main() async {
        StandardOutput.prepare()
        LoggingSystem.bootstrap(StderrLog.handler)
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as StandardOutputError {
            printError(error.description)
            exit(withError: ExitCode.failure)
        } catch {
            exit(withError: error)
        }
    }
}
