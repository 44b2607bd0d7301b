import ParleyCore
import Recognition

/// Turns a failed model load into an error that names the file at fault.
///
/// `ps_init` only returns NULL; the reason is in PocketSphinx's log, which is
/// captured during the load. The file named is the model file the log's
/// error mentions, else the file whose loading stage failed.
enum ModelFailure {
    /// The error for a load of `model` that failed with `logErrors` in the log.
    static func diagnose(_ model: SpeechModel, logErrors: [String]) -> RecognitionError {
        let reason = logErrors.last.map(SphinxLog.message) ?? "PocketSphinx could not load it"
        for line in logErrors.reversed() {
            if let file = mentionedFile(in: line, model: model) {
                return .modelUnusable(path: file, reason: SphinxLog.message(line))
            }
        }
        return .modelUnusable(path: stageFile(logErrors, model: model), reason: reason)
    }

    /// The model file or acoustic model folder that `line` mentions.
    private static func mentionedFile(in line: String, model: SpeechModel) -> String? {
        let candidates = [model.languageModel, model.dictionary]
        if let file = candidates.first(where: line.contains) { return file }
        guard let range = line.range(of: model.acousticModel) else { return nil }
        let tail = line[range.upperBound...]
        let file = tail.prefix { !$0.isWhitespace && $0 != "'" && $0 != "\"" && $0 != ":" && $0 != "," }
        return model.acousticModel + file
    }

    /// The file of the loading stage the log's errors come from (`"dict.c"` → the dictionary…).
    private static func stageFile(_ lines: [String], model: SpeechModel) -> String {
        let text = lines.joined(separator: " ")
        if text.contains("dict") { return model.dictionary }
        if text.contains("ngram") || text.contains("lm") { return model.languageModel }
        return model.acousticModel
    }
}
