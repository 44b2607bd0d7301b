import Dialogue

/// Candidates for tab completion, supplied by the caller: the REPL knows the
/// commands, the caller knows the locales, voices and dictionary words.
public struct CompletionSource: Sendable {
    /// Locale tags and names a side may speak (`en-US`, `Spanish`…).
    public var locales: [String]
    /// Voice identifiers.
    public var voices: [String]
    /// Dictionary words, looked up when needed (the dictionaries change while the REPL runs).
    public var dictionaryWords: @Sendable () -> [String]

    /// Creates a source.
    public init(locales: [String] = [], voices: [String] = [], dictionaryWords: @escaping @Sendable () -> [String] = { [] }) {
        self.locales = locales
        self.voices = voices
        self.dictionaryWords = dictionaryWords
    }
}

/// Decides what tab completes, from the words before the cursor.
public struct Completer: Sendable {
    /// Where candidates come from.
    public var source: CompletionSource

    /// Creates a completer.
    public init(source: CompletionSource) {
        self.source = source
    }

    /// The dictionary subcommands.
    static let dictionarySubcommands = ["add", "export", "import", "list", "lookup", "remove", "say"]

    /// Candidates for `word`, the word being completed, given the text before it on the line.
    public func candidates(before prefix: String, word: String) -> [String] {
        let words = prefix.split(separator: " ").map(String.init)
        let pool: [String]
        if let command = words.first?.lowercased(), command.hasPrefix(":") {
            pool = arguments(of: command, position: words.count)
        } else if words.isEmpty, word.hasPrefix(":") {
            pool = CommandParser.commandNames
        } else {
            pool = source.dictionaryWords()
        }
        let lowered = word.lowercased()
        var seen = Set<String>()
        return pool.filter { $0.lowercased().hasPrefix(lowered) && seen.insert($0).inserted }.sorted()
    }

    private func arguments(of command: String, position: Int) -> [String] {
        switch (command, position) {
        case (":a", 1), (":b", 1): return source.locales
        case (":voice", 1), (":rate", 1): return ["A", "B"]
        case (":voice", 2): return source.voices
        case (":mode", 1): return TurnMode.allCases.map(\.rawValue)
        case (":turns", 1): return TurnTaking.allCases.map(\.rawValue)
        case (":recognizer", 1): return ["A", "B"]
        case (":recognizer", 2): return ["pocketsphinx", "whisper"]
        case (":help", 1): return CommandParser.commandNames.map { String($0.dropFirst()) }
        case (":correct", 1): return ["on", "off"]
        case (":dict", 1): return Self.dictionarySubcommands
        case (":dict", 2): return Array(Set(source.locales.compactMap { $0.split(separator: "-").first.map(String.init) }
                                              .filter { $0.count <= 3 && $0 == $0.lowercased() }))
        case (":dict", _), (":say", _): return source.dictionaryWords()
        default: return []
        }
    }
}
