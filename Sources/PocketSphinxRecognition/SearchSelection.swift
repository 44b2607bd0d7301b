import ParleyCore
import Recognition

/// Which PocketSphinx search serves each hint, defining grammars on first use.
///
/// PocketSphinx aborts with a double free when the grammar of the active
/// search is redefined, so a grammar is never redefined: the confirmation
/// grammar is defined once, and each new user grammar gets a fresh name
/// (the previous one is removed once it is no longer active).
struct SearchSelection {
    /// The search name of the confirmation grammar.
    static let confirmationSearch = "parley_confirmation"

    /// A yes/no grammar in the words of the US English dictionary.
    static let confirmationGrammar = """
        #JSGF V1.0;
        grammar confirmation;
        public <answer> = yes | yeah | yep | sure | correct | right | okay | that is right
                        | no | nope | wrong | incorrect | that is wrong;
        """

    private var confirmationDefined = false
    private var userGrammar: (name: String, text: String)?
    private var userGrammarCount = 0

    /// Makes the search for `hint` active on `decoder`, between utterances.
    mutating func activate(_ hint: RecognitionHint, on decoder: Decoder) throws {
        let name: String
        switch hint {
        case .dictation:
            name = Decoder.dictationSearch
        case .confirmation:
            name = Self.confirmationSearch
            if !confirmationDefined {
                try define(Self.confirmationGrammar, named: name, on: decoder, what: "the confirmation grammar")
                confirmationDefined = true
            }
        case let .grammar(text):
            name = try userGrammarName(for: text, on: decoder)
        }
        if decoder.activeSearch != name { try decoder.activateSearch(named: name) }
    }

    /// The search of user grammar `text`, defined under a fresh name unless it is the current one.
    private mutating func userGrammarName(for text: String, on decoder: Decoder) throws -> String {
        if let userGrammar, userGrammar.text == text { return userGrammar.name }
        userGrammarCount += 1
        let name = "parley_grammar_\(userGrammarCount)"
        try define(text, named: name, on: decoder, what: "the grammar")
        if let previous = userGrammar {
            if decoder.activeSearch == previous.name { try decoder.activateSearch(named: name) }
            decoder.removeSearch(named: previous.name)
        }
        userGrammar = (name, text)
        return name
    }

    private func define(_ grammar: String, named name: String, on decoder: Decoder, what: String) throws {
        if let stray = JSGFStatements.strayText(in: grammar) {
            throw GrammarError(reason: "'\(stray)' is not a JSGF statement")  // PocketSphinx would print it and go on
        }
        let (defined, errors) = SphinxLog.capturing { decoder.defineGrammar(grammar, named: name) }
        guard defined else {
            throw GrammarError(reason: errors.first.map(SphinxLog.message) ?? "\(what) could not be compiled")
        }
    }
}

/// A JSGF grammar that PocketSphinx cannot use.
public struct GrammarError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What PocketSphinx said about it.
    public var reason: String

    public var description: String {
        "the grammar cannot be used: \(reason); check its JSGF syntax and that every word is in the model's dictionary"
    }
}
