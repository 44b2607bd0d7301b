/// The one piece of state an Apertium pipeline carries from one sentence to
/// the next, and how Parley notices it.
///
/// `apertium-tagger` (the HMM part-of-speech tagger) adds every ambiguity
/// class it was not trained on to its model the first time it meets one
/// ("included": adjective, adverb, past, participle). Later words whose class
/// is also new are then matched against that grown model, so after "Is
/// breakfast included?" the tagger reads "near" as an adverb ("… cerca el
/// hotel?") where a fresh tagger reads a verb ("… se acerca el hotel?"). The
/// null flush does not undo it; no later sentence does.
///
/// With `-d` the tagger says so on stderr ("A new ambiguity class was found"),
/// without changing its output. A tagger that said so has drifted and is
/// replaced (by a spare started beforehand, see `ApertiumPipeline`) before the
/// next sentence, so every sentence meets a tagger in the state a fresh
/// `apertium -u` would give it.
enum TaggerDrift {
    /// The stderr text with which the tagger reports a class it has just added.
    static let report = "new ambiguity class"

    /// `script` with the tagger's debug messages turned on (stdout is unchanged).
    static func reporting(_ script: String) -> String {
        script.replacingOccurrences(of: "apertium-tagger -z ", with: "apertium-tagger -z -d ")
    }

    /// Whether the stderr text a pipeline wrote while answering one sentence says its tagger changed.
    static func hasDrifted(errorOutput: String) -> Bool {
        errorOutput.lowercased().contains(report)
    }
}
