import ArgumentParser
import Audio
import Dialogue
import Foundation
import Locales
import Logging
import ParleyCore
import Recognition
import REPL
import Synthesis
import Translation
import WhisperRecognition

/// `parley room PARTY PARTY [PARTY…]`: a conversation of two or more people, each with their
/// own microphone and speaker, on this machine's audio server or another's.
struct RoomCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "room",
        abstract: "Start a room: two or more people, each with their own microphone and speaker, each in their own language.",
        discussion: """
            Each PARTY is LOCALE[,source=NAME][,sink=NAME][,server=ADDRESS][,cookie=FILE]: the \
            language the person speaks and hears, their microphone and speaker (see `parley devices`), \
            the audio server they are on (tcp:HOST:PORT for another machine, unix:/PATH) and the \
            cookie file that server wants. Left out: --server (or the default server), its default \
            devices, libpulse's own cookie. Every party is heard all the time, and what each says \
            is translated into every other party's language and spoken on their speaker. Two \
            parties never share a microphone: each needs a headset, or a speaker their microphone \
            does not hear. A party whose server goes away is marked away and comes back with it; \
            the room goes on. Type @N TEXT to say TEXT as party N, :help for the commands; with \
            standard input not a terminal, each line waits until what came before it was spoken. \
            Parley opens no port: a server on another machine is opened there (docs/rooms.md).
            """,
        aliases: ["meeting"])

    @Argument(parsing: .allUnrecognized,
              help: ArgumentHelp("LOCALE[,source=NAME][,sink=NAME][,server=ADDRESS][,cookie=FILE], two or more.",
                                 valueName: "party"))
    var parties: [String] = []

    @OptionGroup var common: CommonOptions

    @OptionGroup var recognition: RecognitionChoiceOptions

    @Option(help: ArgumentHelp("Write the transcript (JSON Lines, one object per utterance) to this file.", valueName: "file"))
    var transcript: String?

    @Option(name: .customLong("endpoint-ms"), parsing: .unconditional,
            help: ArgumentHelp("Trailing silence that ends an utterance.", valueName: "ms"))
    var endpointMilliseconds = 500

    @Flag(name: .customLong("no-transcript"), help: "Write no transcript.")
    var noTranscript = false

    @Flag(name: .customLong("no-history"), help: "Keep no input history.")
    var noHistory = false

    func validate() throws {
        guard (50...10_000).contains(endpointMilliseconds) else {
            throw ValidationError("--endpoint-ms must be between 50 and 10000 milliseconds")
        }
        if noTranscript, transcript != nil {
            throw ValidationError("--transcript and --no-transcript cannot be used together")
        }
        // Parties never start with a dash: what does is an option the room does not have.
        if let option = parties.first(where: { $0.hasPrefix("-") }) {
            throw ValidationError("\(option) is not an option of room; see `parley room --help`")
        }
        guard parties.count >= 2 else {
            throw ValidationError("a room needs two parties or more, as in `parley room en-US,source=a.monitor,sink=a fr-FR,source=b.monitor,sink=b`")
        }
        if common.source != nil || common.sink != nil {
            throw ValidationError("--source and --sink name one microphone and one speaker; give each party its own, as in en-US,source=NAME,sink=NAME")
        }
        let members = try readParties()
        let cookies = try readCookies(members)
        let microphones = members.indices.map {
            Microphone(server: members[$0].server ?? common.server, source: members[$0].source, cookie: cookies[$0])
        }
        if let shared = DeviceChecks.sharedMicrophone(microphones) {
            throw ValidationError("parties \(shared.first + 1) and \(shared.second + 1) would share one microphone (\(shared.microphone)): each needs their own source=, or each would hear the other's words as theirs")
        }
    }

    /// Each party's cookie, read (nil: none of its own); a file that is not a cookie, or a
    /// `$PULSE_COOKIE` that is not one when a party has none of its own, is refused in one sentence.
    private func readCookies(_ members: [RoomParty]) throws -> [PulseCookie?] {
        do {
            let cookies = try members.indices.map { index throws(DeviceRefusal) in
                try members[index].cookie.map { path throws(DeviceRefusal) in
                    try DeviceChecks.cookie(path, of: "party \(index + 1)", server: members[index].server ?? common.server)
                }
            }
            if cookies.contains(where: { $0 == nil }) { try DeviceChecks.environmentCookie() }
            return cookies
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The PARTY arguments, read; a bad one is refused in one sentence.
    private func readParties() throws -> [RoomParty] {
        do {
            return try parties.map { text throws(RoomPartyError) in try RoomParty(parsing: text) }
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() async throws {
        try await reportingFailure {
            let directories = try common.directories()
            let inventory = try await Inventory.gather(common)
            let registry = inventory.locales
            let members = try readParties()
            var locales: [LocaleTag] = []
            for party in members {
                let locale = try registry.resolve(party.locale.description)
                try UnservedLocale.check(locale, in: inventory)
                locales.append(locale)
            }
            var stages = try await openRoom(members, cookies: try readCookies(members), directories, registry, locales: locales)
            stages.waitGivenUp = { printError("\($0); leaving") }
            let writer: TranscriptWriter?
            do {
                writer = try openTranscript(directories)
            } catch {
                await stages.shutdown()
                throw error
            }
            defer { if transcript == nil { writer?.removeIfNothingWritten() } }
            let room = RoomCoordinator(stages: stages, transcript: writer, endpointMilliseconds: endpointMilliseconds)
            let history = noHistory ? nil : ReplOptions.historyPath(stateDirectory: directories.state)
            try await Repl(room: room, options: .detect(historyFile: history)).run()
        }
    }

    /// Every party's audio session, opened now (a party who cannot be reached ends the room
    /// before it starts, in one sentence), and the engines they share.
    private func openRoom(_ members: [RoomParty], cookies: [PulseCookie?], _ directories: DataDirectories, _ registry: LocaleRegistry,
                          locales: [LocaleTag]) async throws -> RoomStages {
        let translator = makeApertium(directories, registry)
        let synthesizer = makeESpeak(directories, languages: Array(Set(locales.map(\.language))))
        async let recognizers = startRecognizers(recognition, directories, registry, locales: locales,
                                                 endpointMilliseconds: endpointMilliseconds)
        var sessions: [AudioSession] = []
        var failure: (any Error)?
        // One connection per server (and cookie), shared by the parties on it.
        var connections: [ServerKey: AudioConnection] = [:]
        for (index, party) in members.enumerated() {
            var options = common.audioSessionOptions()
            options.server = party.server ?? common.server
            options.source = party.source
            options.sink = party.sink
            options.cookie = cookies[index]
            let key = ServerKey(server: options.server, cookie: options.cookie)
            let connection = connections[key] ?? AudioConnection(server: options.server, cookie: options.cookie,
                                                                 applicationName: options.applicationName)
            connections[key] = connection
            let session = AudioSession(options: options, connection: connection,
                                       logger: Logger(label: "parley.audio.party\(index + 1)"))
            do {
                try await session.open()
                sessions.append(session)
            } catch let unavailable as AudioServerUnavailable {
                failure = PartyUnreachable(party: index + 1, server: options.server,
                                           reason: "\(unavailable.reason); start that server, or check its address and cookie")
                break
            } catch {
                failure = PartyUnreachable(party: index + 1, server: options.server, reason: "\(error)")
                break
            }
        }
        // Every pair, both ways, so the first utterance does not wait for Apertium to load.
        for source in Set(locales) {
            for target in Set(locales) where source.language != target.language {
                try? await translator.prepare(from: source, to: target)
            }
        }
        let (router, limitations) = await recognizers
        let opened = sessions
        let shutdown: @Sendable () async -> Void = {
            for session in opened { await session.close() }
            await translator.shutdown()
            await router?.whisper?.worker.shutdown()
        }
        if let failure {
            await shutdown()
            throw failure
        }
        let server = common.server
        let roomMembers = members.indices.map { index in
            RoomMember(locale: locales[index], source: sessions[index], sink: sessions[index], audioEvents: sessions[index].events,
                       place: members[index].server ?? server ?? "the default server")
        }
        return RoomStages(members: roomMembers, recognizer: router,
                          translator: GlossaryTranslator(wrapping: translator, store: GlossaryStore(directory: directories.user)),
                          synthesizer: synthesizer, limitations: limitations, shutdown: shutdown)
    }

    /// A server as a connection reaches it: its address and the cookie shown to it.
    private struct ServerKey: Hashable {
        var server: String?
        var cookie: PulseCookie?
    }

    /// A party's audio server could not be reached when the room opened.
    struct PartyUnreachable: Error, CustomStringConvertible {
        var party: Int
        var server: String?
        var reason: String
        var description: String { "party \(party) cannot be reached on \(server ?? "the default server"): \(reason)" }
    }

    /// The transcript writer: `--transcript FILE` must open; the default file may fail with a warning.
    private func openTranscript(_ directories: DataDirectories) throws -> TranscriptWriter? {
        try openTranscriptFile(transcript, none: noTranscript, directories)
    }
}
