public import ParleyCore
import Foundation

/// How often espeak wrote each mnemonic for each IPA symbol, over a word list.
public struct SymbolObservations: Sendable, Equatable {
    /// IPA symbol → mnemonic → times seen.
    public var pairs: [String: [String: Int]] = [:]
    /// Words whose two transcriptions paired up token for token.
    public var wordsPaired = 0
    /// Words skipped because the two transcriptions had different token counts.
    public var wordsSkipped = 0

    /// Creates empty observations.
    public init() {}

    /// Records one word's transcriptions, or counts it as skipped if they do not pair up.
    mutating func record(mnemonic: [[String]], ipa: [[String]]) {
        guard mnemonic.count == ipa.count, zip(mnemonic, ipa).allSatisfy({ $0.count == $1.count }) else {
            wordsSkipped += 1
            return
        }
        for (mnemonicToken, ipaToken) in zip(mnemonic.joined(), ipa.joined()) {
            pairs[ipaToken, default: [:]][mnemonicToken, default: 0] += 1
        }
        wordsPaired += 1
    }

    /// One row per IPA symbol with its most frequent mnemonic, most frequent symbols first.
    public func rows(voice: String) -> [IPASymbolTable.Row] {
        pairs.compactMap { ipa, mnemonics -> IPASymbolTable.Row? in
            guard let best = mnemonics.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }) else { return nil }
            return IPASymbolTable.Row(ipa: ipa, mnemonic: best.key, count: best.value, voice: voice)
        }.sorted { ($0.count, $1.ipa) > ($1.count, $0.ipa) }
    }
}

/// Derives a language's IPA table from the installed eSpeak NG (the method of
/// ENGINE-NOTES): each word is transcribed twice with the same separator, as
/// mnemonics and as IPA; the tokens pair up one to one (stress marks aside),
/// and each IPA symbol keeps the mnemonic espeak wrote most often for it.
public struct SymbolTableBuilder: Sendable {
    /// Where transcriptions come from.
    public let transcriber: any PhonemeTranscriber
    /// A separator no phoneme contains.
    static let separator: Character = "‖"

    /// Creates a builder over a transcriber.
    public init(transcriber: any PhonemeTranscriber) {
        self.transcriber = transcriber
    }

    /// Pairs the transcriptions of `words` spoken by `voice`.
    public func observe(words: [String], voice: String) async throws -> SymbolObservations {
        var observations = SymbolObservations()
        for word in words {
            let mnemonic = try await tokens(of: word, voice: voice, notation: .mnemonic)
            let ipa = try await tokens(of: word, voice: voice, notation: .ipa)
            observations.record(mnemonic: mnemonic, ipa: ipa)
        }
        return observations
    }

    /// The table for `language`: the primary voice's pairs, then symbols only
    /// the other voices wrote, kept when the primary voice says their mnemonic
    /// as that very symbol.
    public func table(language: String, primary: (voice: String, observations: SymbolObservations),
                      others: [(voice: String, observations: SymbolObservations)]) async throws -> IPASymbolTable {
        var rows = primary.observations.rows(voice: primary.voice)
        var known = Set(rows.map(\.ipa))
        for other in others {
            for row in other.observations.rows(voice: other.voice) where !known.contains(row.ipa) {
                let spoken = try await tokens(of: "[[\(row.mnemonic)]]", voice: primary.voice, notation: .ipa)
                guard spoken.joined().joined() == row.ipa else { continue }
                rows.append(row)
                known.insert(row.ipa)
            }
        }
        return IPASymbolTable(language: language, rows: rows)
    }

    /// The transcription of `text`, split into words and phonemes, stress marks removed.
    func tokens(of text: String, voice: String, notation: PhonemeNotation) async throws -> [[String]] {
        let output = try await transcriber.phonemes(of: text, voice: voice, notation: notation, separator: Self.separator)
        let stress: Set<Character> = notation == .ipa ? ["ˈ", "ˌ"] : ["'", ","]
        return output.split(separator: " ").map { word in
            word.split(separator: Self.separator).map { String($0.drop { stress.contains($0) }) }
        }
    }
}
