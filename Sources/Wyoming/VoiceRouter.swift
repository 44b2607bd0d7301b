public import ParleyCore
import Synchronization

/// The conversation's voices: the local synthesizer (eSpeak NG), and the Wyoming servers
/// whose voices a party was given (`voice=wyoming:tcp://HOST:PORT#NAME`). An utterance whose
/// voice is a Wyoming voice's identifier is spoken by that server; any other by the local one.
public final class VoiceRouter: SpeechSynthesizer, Sendable {
    /// The synthesizer on this machine.
    public let local: (any SpeechSynthesizer)?
    /// The Wyoming servers, one per address.
    public let servers: [WyomingSynthesizer]

    /// A router over `local` and a server for each address among `voices` (identifiers; those
    /// that are not a Wyoming voice's are the local synthesizer's).
    public init(local: (any SpeechSynthesizer)?, voices: [String]) {
        self.local = local
        var addresses: [WyomingAddress] = []
        for voice in voices {
            guard let address = (try? WyomingSynthesizer.parse(voice))??.address, !addresses.contains(address) else { continue }
            addresses.append(address)
        }
        servers = addresses.map { WyomingSynthesizer(address: $0) }
    }

    /// Why the Wyoming voice `identifier` cannot speak (its server cannot be asked, or has no
    /// voice of that name), or nil when it can, or is not a Wyoming voice.
    public func unavailability(of identifier: String) async -> String? {
        let parsed: (address: WyomingAddress, name: String?)?
        do { parsed = try WyomingSynthesizer.parse(identifier) } catch { return "\(error)" }
        guard let parsed else { return nil }
        guard let server = servers.first(where: { $0.address == parsed.address }) else {
            return "its server \(parsed.address) was not given when the conversation started"
        }
        do {
            let voices = try await server.describe()
            if let name = parsed.name, !voices.contains(where: { $0.name == name }) {
                return "the Wyoming server \(parsed.address) has no voice \(name) (its voices: \(WyomingSynthesizer.listed(voices)))"
            }
            return nil
        } catch {
            return "\(error)"
        }
    }

    public func voices() async -> [Voice] {
        var voices = await local?.voices() ?? []
        for server in servers { voices += await server.voices() }
        return voices
    }

    public func speak(_ utterance: Utterance) -> AsyncThrowingStream<SynthesisEvent, any Error> {
        if case let .identifier(identifier) = utterance.voice, WyomingAddress.isWyoming(identifier) {
            guard let address = (try? WyomingSynthesizer.parse(identifier))??.address,
                  let server = servers.first(where: { $0.address == address }) else {
                return AsyncThrowingStream { $0.finish(throwing: UnknownVoiceServer(identifier: identifier)) }
            }
            return server.speak(utterance)
        }
        guard let local else {
            return AsyncThrowingStream { $0.finish(throwing: UnknownVoiceServer(identifier: "a local voice")) }
        }
        return local.speak(utterance)
    }

    public func stopSpeaking() async {
        await local?.stopSpeaking()
        for server in servers { await server.stopSpeaking() }
    }
}

/// A voice whose synthesizer the conversation does not have.
struct UnknownVoiceServer: Error, CustomStringConvertible {
    var identifier: String
    var description: String { "no synthesizer here speaks \(identifier)" }
}
