import Audio
import Dialogue
import Locales
import ParleyCore
import Recognition

/// What `makeStages` needs to build the stages of a conversation.
struct StageRequest {
    /// The parsed command line (`--typed-only`, `--mute`, `--echo-cancel`, `--barge-in`…).
    var command: DialogueCommand
    /// Data, models and state directories.
    var directories: DataDirectories
    /// The locale tables.
    var registry: LocaleRegistry
    /// The locales of sides A and B.
    var locales: [LocaleTag]
    /// Each side's microphone, speaker and server.
    var devices: SideDevicePlan
}

// MARK: - Wiring point for the stages

/// Builds the stages the dialogue runs on, from what `openConversation` opens.
///
/// This is where the concrete stages meet the dialogue: the audio session (one source and
/// sink for the whole conversation, or one session per side with separate devices; none
/// with `--typed-only` and `--mute`; a missing server becomes a limitation, not a failure),
/// the recognizer with its models loaded before the first turn (none with `--typed-only`),
/// the translator with its pipelines started, and the synthesizer with the pronunciation
/// dictionaries of both sides. Anything that cannot start is left out with a one-sentence
/// limitation; the dialogue goes on without it. The third value says whether the session
/// (every side's) records and plays through an echo canceller.
///
/// With a microphone and speaker per side, a side whose server cannot be reached ends the
/// conversation before it starts, in one sentence (`PartyUnreachable`), as a room's party does:
/// its devices were named on purpose, and the other person would never hear a word.
func makeStages(_ request: StageRequest) async throws -> (ConversationStages, OpenedConversation, Bool) {
    let command = request.command
    let parties = audioParties(request)
    let opened = await openConversation(parties, locales: request.locales, voices: [request.devices.voiceA, request.devices.voiceB],
                                        recognizers: [request.devices.recognizerA, request.devices.recognizerB],
                                        recognition: command.typedOnly ? nil : command.recognition,
                                        endpointMilliseconds: command.options.endpointMilliseconds,
                                        request.directories, request.registry)
    let a = opened.audio.first
    let b = request.devices.b == nil ? nil : opened.audio.dropFirst().first
    var limitations: [String] = []
    for (party, audio) in zip(parties, opened.audio) { limitations += audioLimitations(audio, of: party, request) }
    let stages = opened.stages(parties, limitations: limitations)
    if request.devices.b != nil, let unreachable = opened.unreachable {
        await stages.shutdown()
        throw unreachable
    }
    return (stages, opened, (a?.cancelsEcho ?? false) && (b?.cancelsEcho ?? true))
}

/// The one session of the conversation, or each side's with separate devices (none with
/// `--typed-only` and `--mute`), through the echo canceller `--echo-cancel` asks for (the
/// session loads it, and again after its server returns).
private func audioParties(_ request: StageRequest) -> [PartyAudio] {
    let command = request.command
    guard !command.typedOnly || !command.mute else { return [] }
    let sides: [(String?, AudioSessionOptions)] = if let b = request.devices.b {
        [("A", request.devices.a), ("B", b)]
    } else {
        [(nil, request.devices.a)]
    }
    return sides.map { side, requested in
        var options = requested
        // With a microphone per side (a headset each), `auto` loads no canceller: neither
        // microphone hears the other side's translations.
        let wantsCanceller = side == nil ? command.echoCancel != .off : command.echoCancel == .on
        if wantsCanceller, !command.typedOnly { options.echoCancellation = EchoCancellation(tag: side?.lowercased()) }
        // Without a canceller, a microphone per side (its echo guard judges what its own speaker
        // leaks) or the measurement keeps the microphone open while Parley speaks.
        options.gatesCaptureDuringPlayback = side == nil && !command.listenDuringPlayback
        options.echoGuardCompares = !command.listenDuringPlayback
        return PartyAudio(name: side.map { "side \($0)" } ?? "the conversation",
                          logLabel: side.map { "parley.audio.side\($0.lowercased())" } ?? "parley.audio", options: options)
    }
}

/// What a session's opening means for the dialogue, one sentence each: a canceller the server
/// refused (said when it was asked for by name), and, for the one shared session, a missing
/// server (typed lines and printed translations instead). A side's own session that did not
/// open is not a limitation but the end (`PartyUnreachable`).
private func audioLimitations(_ audio: OpenedAudio, of party: PartyAudio, _ request: StageRequest) -> [String] {
    let command = request.command
    let shared = request.devices.b == nil
    // A side's own limitation names the side.
    let named = { (text: String) in shared ? text : "\(party.name): \(text)" }
    var limitations: [String] = []
    if let refused = audio.cancellerRefused, command.echoCancel == .on || (command.bargeIn == .on && shared) {
        limitations.append(named("\(refused); the microphone closes while Parley speaks"))
    }
    guard shared, let failure = audio.failure else { return limitations }
    if let unavailable = failure as? AudioServerUnavailable, command.typedOnly {
        return [unavailable.described(offering: "--mute")]
    }
    return limitations + ["\(failure); lines are typed and translations printed"]
}
