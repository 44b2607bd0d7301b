import ArgumentParser
import Audio
import Dialogue
import Locales
import ParleyCore
import REPL

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
            the room goes on. A listener who speaks over the translation they hear stops it \
            (--barge-in off: it plays on); --simultaneous interprets each clause to every listener \
            while the speaker goes on. Type @N TEXT to say TEXT as party N, :help for the commands; with \
            standard input not a terminal, each line waits until what came before it was spoken. \
            Parley opens no port: a server on another machine is opened there (docs/rooms.md).
            """,
        aliases: ["meeting"])

    @Argument(parsing: .allUnrecognized,
              help: ArgumentHelp("LOCALE[,source=NAME][,sink=NAME][,server=ADDRESS][,cookie=FILE][,voice=VOICE][,recognizer=NAME], two or more.",
                                 valueName: "party"))
    var parties: [String] = []

    @OptionGroup var options: ConversationOptions

    var common: CommonOptions { options.common }

    func validate() throws {
        // Parties never start with a dash: what does is an option the room does not have.
        if let option = parties.first(where: { $0.hasPrefix("-") }) {
            throw ValidationError("\(option) is not an option of room; see `parley room --help`")
        }
        guard parties.count >= 2 else {
            throw ValidationError("a room needs two parties or more, as in `parley room en-US,source=a.monitor,sink=a fr-FR,source=b.monitor,sink=b`")
        }
        for party in try readParties() {
            if let name = party.recognizer { try RecognitionChoiceOptions.check(name) }
            if let voice = party.voice { try checkVoice(voice) }
        }
        if common.source != nil || common.sink != nil {
            throw ValidationError("--source and --sink name one microphone and one speaker; give each party its own, as in en-US,source=NAME,sink=NAME")
        }
        let devices = try partyDevices()
        if let shared = DeviceChecks.sharedMicrophone(devices.map(Microphone.init)) {
            throw ValidationError("parties \(shared.first + 1) and \(shared.second + 1) would share one microphone (\(shared.microphone)): each needs their own source=, or each would hear the other's words as theirs")
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

    /// Each party's devices, server and cookie (read: a file that is not a cookie, or a
    /// `$PULSE_COOKIE` that is not one when a party has none of its own, is refused in one sentence).
    private func partyDevices() throws -> [AudioSessionOptions] {
        let members = try readParties()
        do {
            let devices = try members.indices.map { index throws(DeviceRefusal) in
                var options = common.audioSessionOptions()
                options.server = members[index].server ?? common.server
                options.source = members[index].source
                options.sink = members[index].sink
                let server = options.server
                options.cookie = try members[index].cookie.map { path throws(DeviceRefusal) in
                    try DeviceChecks.cookie(path, of: "party \(index + 1)", server: server)
                }
                return options
            }
            if devices.contains(where: { $0.cookie == nil }) { try DeviceChecks.environmentCookie() }
            return devices
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() async throws {
        try await reportingFailure {
            let directories = try common.directories()
            let inventory = try await Inventory.gather(common)
            let registry = inventory.locales
            var locales: [LocaleTag] = []
            let parties = try readParties()
            for party in parties {
                let locale = try registry.resolve(party.locale.description)
                try UnservedLocale.check(locale, in: inventory)
                locales.append(locale)
            }
            var (stages, voices) = try await openRoom(try partyDevices(), directories, registry, locales: locales,
                                                      voices: parties.map(\.voice), recognizers: parties.map(\.recognizer))
            stages.waitGivenUp = { printError("\($0); leaving") }
            let writer = try await options.openTranscript(directories, shuttingDownOnRefusal: stages.shutdown)
            defer { options.keepTranscript(writer) }
            let interpretation = options.interpretation
            let turnByTurn = InterpretationOptions.turnByTurnReason(options.recognition)
            if interpretation.simultaneous, let turnByTurn { stages.limitations.append("simultaneous interpretation is off: \(turnByTurn)") }
            var settings = RoomSettings(endpointMilliseconds: options.endpointMilliseconds,
                                        simultaneous: interpretation.simultaneous && turnByTurn == nil,
                                        commitPolicy: interpretation.commitPolicy?.policy ?? .localAgreement,
                                        bargeIn: interpretation.bargeIn != .off)
            settings.voices = voices
            if settings.simultaneous, let note = OwnPaceVoices.note(voices) { stages.limitations.append(note) }
            let room = RoomCoordinator(locales: locales, stages: stages, transcript: writer, settings: settings)
            try await Repl(room: room, options: options.replOptions(directories)).run()
        }
    }

    /// Every party's audio session, opened now (a party who cannot be reached ends the room
    /// before it starts, in one sentence), and the engines they share.
    private func openRoom(_ devices: [AudioSessionOptions], _ directories: DataDirectories, _ registry: LocaleRegistry,
                          locales: [LocaleTag], voices: [String?], recognizers: [String?]) async throws -> (ConversationStages, [String?]) {
        let parties = devices.indices.map { PartyAudio(name: "party \($0 + 1)", logLabel: "parley.audio.party\($0 + 1)", options: devices[$0]) }
        let opened = await openConversation(parties, locales: locales, voices: voices, recognizers: recognizers,
                                            recognition: options.recognition,
                                            endpointMilliseconds: options.endpointMilliseconds, directories, registry)
        if let unreachable = opened.unreachable {
            await opened.shutdown()
            throw unreachable
        }
        return (opened.stages(parties), opened.voices)
    }
}
