/// How long a pipeline may take and how much it may print.
public struct TranslationLimits: Sendable, Equatable {
    /// Time allowed for any sentence, in seconds.
    public var baseTimeout: Double
    /// Extra time per character of input, in seconds (a 10,000-character text needs ~0.2 s).
    public var timeoutPerCharacter: Double
    /// Extra time for the first sentence of a newly started pipeline, which loads its dictionaries.
    public var startupTimeout: Double
    /// Longest input accepted, in characters.
    public var maximumCharacters: Int

    /// Creates limits; the defaults allow 5 s plus 1 ms per character (10 s more for a
    /// pipeline's first sentence), and 100,000 characters.
    public init(baseTimeout: Double = 5, timeoutPerCharacter: Double = 0.001, startupTimeout: Double = 10,
                maximumCharacters: Int = 100_000) {
        self.baseTimeout = baseTimeout
        self.timeoutPerCharacter = timeoutPerCharacter
        self.startupTimeout = startupTimeout
        self.maximumCharacters = maximumCharacters
    }

    func timeout(characters: Int) -> Double { baseTimeout + timeoutPerCharacter * Double(characters) }

    /// An answer is a few times its request at most; far more means the stream is broken.
    func answerLimit(requestBytes: Int) -> Int { max(1 << 20, requestBytes * 16) }
}
