import Foundation

/// Turns words of a list into dictionary entries from the CMU pronouncing dictionary.
public struct CMUImport: Sendable {
    /// The CMU dictionary.
    public let cmu: CMUDictionary
    /// ARPAbet → IPA.
    public let arpabet: ARPAbetTable

    /// Creates an importer.
    public init(cmu: CMUDictionary, arpabet: ARPAbetTable) {
        self.cmu = cmu
        self.arpabet = arpabet
    }

    /// Entries for the words found, and the words that were not.
    public func entries(for words: [String]) throws -> (entries: [DictionaryEntry], missing: [String]) {
        var entries: [DictionaryEntry] = []
        var missing: [String] = []
        for word in words {
            guard let phones = cmu.phones(of: word) else {
                missing.append(word)
                continue
            }
            do {
                entries.append(DictionaryEntry(word: word, ipa: try arpabet.ipa(for: phones)))
            } catch let unknown as UnknownPhone {
                throw PronunciationError.importFailure(path: cmu.path, reason: "line \(cmu.line(of: word) ?? 0), '\(word)': "
                    + "unknown ARPAbet phone '\(unknown.phone)' in '\(unknown.pronunciation)'")
            }
        }
        return (entries, missing)
    }
}
