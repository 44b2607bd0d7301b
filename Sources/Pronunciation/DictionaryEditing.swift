import Foundation
import Locales

/// What `remove` did.
public enum Removal: Sendable, Equatable {
    /// The user's entry was deleted (a shipped one, if any, is in force again).
    case removedUserEntry
    /// A shipped entry is now hidden by a `word<TAB>-` line in the user's dictionary.
    case hidShippedEntry
}

extension PronunciationDictionaries {
    /// Adds `word` with `ipa` to the user's dictionary, replacing an entry for
    /// the same word where it stands. The IPA is converted first, so nothing
    /// that espeak could not say is ever saved. Returns the mnemonics.
    @discardableResult
    public func add(word: String, ipa: String, language: String) throws -> String {
        let entry = try checkedEntry(word: word, ipa: ipa)
        let converter = try converter(language: language)
        let mnemonics = try converter.mnemonics(for: entry.ipa, word: entry.word)
        try converter.validate(mnemonics: mnemonics)
        try edit(language: language) { $0.set(entry) }
        return mnemonics
    }

    /// Adds many entries in one locked save: all of them or, if one does not convert, none.
    public func add(entries: [DictionaryEntry], language: String) throws {
        let converter = try converter(language: language)
        let checked = try entries.map { entry -> DictionaryEntry in
            let checked = try checkedEntry(word: entry.word, ipa: entry.ipa)
            try converter.validate(mnemonics: converter.mnemonics(for: checked.ipa, word: checked.word))
            return checked
        }
        try edit(language: language) { $0.set(checked) }
    }

    /// Removes `word`: the user's entry if there is one, otherwise hides the shipped one.
    public func remove(word: String, language: String) throws -> Removal {
        let shipped = try read(language: language, layer: .shipped)?.entry(for: word)
        return try edit(language: language) { document in
            if let own = document.entry(for: word), !own.hidesShipped {
                document.remove(word)
                return .removedUserEntry
            }
            guard let shipped, document.entry(for: word) == nil else {
                throw PronunciationError.notInDictionary(word: word, language: language)
            }
            document.set(DictionaryEntry(word: shipped.word, ipa: DictionaryEntry.espeakOwn))
            return .hidShippedEntry
        }
    }

    /// Changes the user's dictionary under its lock: re-read, change, save atomically.
    func edit<T>(language: String, _ change: (inout DictionaryDocument) throws -> T) throws -> T {
        let file = path(language: language, layer: .user)
        do {
            try FileManager.default.createDirectory(atPath: directories.user, withIntermediateDirectories: true)
        } catch {
            throw PronunciationError.fileFailure(path: directories.user, reason: "cannot be created")
        }
        return try AtomicFile.withLock(file + ".lock") {
            var document = try read(language: language, layer: .user)
                ?? DictionaryDocument(path: file, header: Self.userHeader(language: language))
            let result = try change(&document)
            try AtomicFile.write(document.serialized(), to: file)
            return result
        }
    }

    /// A word and pronunciation trimmed, or the error for an empty one or one
    /// holding a control character (a tab or newline would forge another entry).
    private func checkedEntry(word: String, ipa: String) throws -> DictionaryEntry {
        if let (scalar, position) = Self.firstControlCharacter(word) {
            throw PronunciationError.controlCharacterInWord(scalar: scalar, position: position)
        }
        if let (scalar, position) = Self.firstControlCharacter(ipa) {
            throw PronunciationError.controlCharacterInPronunciation(word: word, scalar: scalar, position: position)
        }
        let word = word.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let ipa = ipa.trimmingCharacters(in: .whitespaces)
        guard !word.isEmpty else { throw PronunciationError.emptyWord }
        guard !word.hasPrefix("#") else { throw PronunciationError.unwritableWord(word) }
        guard !ipa.isEmpty else { throw PronunciationError.emptyPronunciation(word: word) }
        return DictionaryEntry(word: word, ipa: ipa)
    }

    /// The first control character of `text` (category Cc, or a line or paragraph separator) and its 1-based position.
    static func firstControlCharacter(_ text: String) -> (UInt32, Int)? {
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: return (scalar.value, offset + 1)
            default: continue
            }
        }
        return nil
    }

    static func userHeader(language: String) -> [String] {
        ["Your \(language) pronunciations: word or phrase, a tab, then IPA (e.g. tomato<TAB>təˈmɑːtəʊ).",
         "Entries here replace the shipped ones; '-' instead of IPA hides a shipped entry.",
         "Edit with `parley dict` or by hand."]
    }
}
