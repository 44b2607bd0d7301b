import Locales
import ParleyCore
import Pronunciation

/// The pronunciation overrides of `languages` from the shipped and the user's
/// dictionaries; a line that cannot be used is reported on stderr and skipped.
func loadPronunciationOverrides(_ directories: DataDirectories, languages: [String]) -> PronunciationOverrides {
    let loaded = PronunciationDictionaries(directories: directories).overrides(for: languages)
    for problem in loaded.problems {
        printError("warning: \(problem) (entry skipped)")
    }
    return loaded.overrides
}
