import ArgumentParser
import Wyoming
import ParleyCore
import WhisperRecognition

/// The options `parley dialog` and `parley room` share for speech over speech: barge-in and
/// simultaneous interpretation, and their checks. Where a conversation's audio allows them
/// (a canceller, or a microphone and speaker per person) is the command's to check.
struct InterpretationOptions: ParsableArguments {
    @Option(name: .customLong("barge-in"),
            help: ArgumentHelp("Let a listener interrupt the translation they hear by speaking over it (default: on when echo cancellation is, or with a microphone and speaker per person, as in every room). A dialogue on one microphone needs echo cancellation for it; :barge-in switches it in a dialogue.",
                               valueName: "on|off"))
    var bargeIn: BargeInOption?

    /// `--barge-in`.
    enum BargeInOption: String, ExpressibleByArgument, CaseIterable {
        case on, off
    }

    @Flag(help: ArgumentHelp("Interpret while a person is still speaking: each clause is translated and spoken to the listeners as soon as its words are committed (Whisper). A dialogue on one microphone needs echo cancellation for it, so the microphone does not hear the translation; a microphone and speaker per person need none. :simultaneous switches it in a dialogue.",
                             valueName: "simultaneous"))
    var simultaneous = false

    @Option(name: .customLong("commit-policy"),
            help: ArgumentHelp("With --simultaneous, how words are committed while a person speaks: local-agreement (two successive decodes agree) or align-att (a word aligned far enough before the end of what was heard).",
                               valueName: "local-agreement|align-att"))
    var commitPolicy: CommitPolicyOption?

    /// Why clauses cannot be interpreted while they are spoken with `recognizer`, or nil where they can.
    static func turnByTurnReason(_ recognizer: RecognitionChoiceOptions) -> String? {
        guard let server = recognizer.wyomingServer else { return nil }
        return "the Wyoming server \(server) gives no word times while the speech goes on; each turn is translated when it ends"
    }

    /// The checks that do not depend on the conversation's audio; `recognizer` is `--recognizer`.
    func validate(recognizer: RecognitionChoiceOptions, common: CommonOptions) throws {
        if simultaneous, recognizer.recognizer == .pocketsphinx {
            throw ValidationError("--simultaneous commits words with Whisper, which --recognizer pocketsphinx leaves out; give one or the other")
        }
        if simultaneous, recognizer.recognizer != .wyoming, let directories = try? common.directories(),
           let missing = whisperInstallation(directories).problem {
            throw ValidationError("--simultaneous commits words with Whisper, and \(missing) is not installed; \(WhisperInstallation.remedy)")
        }
        if commitPolicy != nil, !simultaneous {
            throw ValidationError("--commit-policy chooses how --simultaneous commits words; give --simultaneous with it")
        }
    }
}

/// Wyoming voices speak at their own pace.
enum OwnPaceVoices {
    /// The note for a conversation interpreted while spoken where some of `voices` are a
    /// Wyoming server's: the protocol has no rate, so a listener who falls behind is not
    /// caught up by faster speech in that voice; nil where none is.
    static func note(_ voices: [String?]) -> String? {
        guard let voice = voices.compactMap({ $0 }).first(where: WyomingAddress.isWyoming) else { return nil }
        return "the voice \(voice) speaks at its own pace (Wyoming has no rate): a listener behind the speaker is not caught up by faster speech"
    }
}

/// Checks a party's `voice=`: a Wyoming voice must be `wyoming:tcp://HOST:PORT#NAME`; any other
/// is a synthesizer's identifier, checked when the conversation starts.
func checkVoice(_ voice: String) throws(ValidationError) {
    do { _ = try WyomingSynthesizer.parse(voice) } catch { throw ValidationError(error.description) }
}
