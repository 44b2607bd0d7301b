import ParleyCore

/// The barge-in watch: while a translation plays with barge-in on, it keeps the last
/// `preRollSeconds` of the microphone and says when the echo guard hears a person in it;
/// once that person's words are known, `verdict` says whether they interrupted.
///
/// It opens no request and holds no playback: the coordinator does both when `overhear`
/// says a person began, feeds the request `takePreRoll()`, and acts on the verdict. A person
/// who interrupts is thereby recognized from their first word, before the guard was sure of them.
struct BargeInWatch: Sendable {
    /// How much audio before the guard's verdict the request is given.
    static let preRollSeconds = 0.3

    /// The text being spoken now (a translation or an aside): an utterance that repeats it
    /// is its echo, not a person.
    var spokenText: String?
    /// A barge-in request is being opened: everything captured meanwhile is kept for it.
    var opening = false
    /// When the last translations played (from their first audio to their stop; nil while one
    /// plays), latest last: their echo reaches the microphone until `echoTailSeconds` after.
    private var played: [(from: Double, until: Double?)] = []
    private var preRoll: [PCMChunk] = []

    /// How long a translation's echo may still reach the microphone after it stopped playing.
    static let echoTailSeconds = 0.5
    /// After a hold in which nobody said a word, the guard's verdict is not taken for this long:
    /// a translation held and played on can sound to it like a person for a moment.
    static let distrustSeconds = 1.5
    /// Until when the guard's verdict is not taken (`distrustSeconds`).
    var distrustedUntil: Double?

    /// Whether the guard's verdict of a person is taken at `time`.
    func trustsGuard(at time: Double) -> Bool { time >= distrustedUntil ?? -.infinity }

    /// A translation starts playing: nothing captured before it is kept.
    mutating func reset() { preRoll = [] }

    /// Keeps `chunk`, captured while a translation plays and nobody has barged in yet;
    /// true when the echo guard heard a person in it and no request is being opened.
    mutating func overhear(_ chunk: PCMChunk) -> Bool {
        preRoll.append(chunk)
        guard !opening else { return false }
        let limit = AudioFormat.recognition.sampleCount(forSeconds: Self.preRollSeconds)
        var total = preRoll.reduce(0) { $0 + $1.samples.count }
        while total - (preRoll.first?.samples.count ?? 0) >= limit {
            total -= preRoll.removeFirst().samples.count
        }
        return chunk.echo == .person
    }

    /// What was kept, for the request being opened; the watch keeps nothing after it.
    mutating func takePreRoll() -> [Int16] {
        defer { preRoll = [] }
        return preRoll.flatMap(\.samples)
    }

    /// Whether speech that began at `speechStart` was a person though the echo guard never told
    /// them from a translation's echo: no translation played then, nor had it just stopped.
    func beganInQuiet(_ speechStart: Double?) -> Bool {
        guard let speechStart else { return false }
        return !played.contains { speechStart >= $0.from && speechStart < ($0.until ?? .infinity) + Self.echoTailSeconds }
    }

    /// A translation's first audio went to the speaker at `time`.
    mutating func playing(from time: Double) {
        played = played.suffix(2) + [(time, nil)]
    }

    /// The translation playing stopped at `time` (played out, held and cut, or failed).
    mutating func stopped(at time: Double) {
        if let last = played.indices.last, played[last].until == nil { played[last].until = time }
    }

    /// Why readings of sound over a translation of `spokenText` are no interruption, or nil
    /// when they are one: no words, a backchannel ("mm", "sí"), or mostly the translation's own words.
    static func verdict(_ readings: [String], spokenText: String) -> String? {
        let heard = readings.map(words).filter { !$0.isEmpty }
        guard let longest = heard.max(by: { $0.count < $1.count }) else { return "no words" }
        if longest.count <= 2, longest.allSatisfy(backchannels.contains) {
            return "a backchannel ('\(longest.joined(separator: " "))')"
        }
        let spoken = Set(words(spokenText))
        for reading in heard {
            // A recognizer writes numbers in digits where the translation spells them ("2", "two").
            let shared = reading.filter { spoken.contains($0) || (numberWords[$0] ?? []).contains(where: spoken.contains) }.count
            if Double(shared) >= 0.6 * Double(reading.count) {
                return "the translation's own echo ('\(reading.joined(separator: " "))')"
            }
        }
        return nil
    }

    /// Below this confidence, a reading of up to `unsureWords` words is too unsure to stop a
    /// translation.
    static let unsureConfidence = 0.3
    /// The most words a reading too unsure to stop a translation has.
    static let unsureWords = 3

    /// Why a reading of sound over a translation is too unsure to stop it, or nil when it is
    /// sure enough: up to three words the recognizer gave less than `unsureConfidence`, which
    /// is the translation's echo read as words more often than a person ("em" read as
    /// "Enlace", 14 %; "Where are you?", 27 %, for the echo of "Where is the season of…").
    /// A person who interrupts says more, or says it clearly.
    static func tooUnsure(_ text: String, confidence: Double?) -> String? {
        let heard = words(text)
        guard let confidence, heard.count <= unsureWords, confidence < unsureConfidence else { return nil }
        return "too unsure to stop it ('\(heard.joined(separator: " "))', \(Int((confidence * 100).rounded())) %)"
    }

    /// Why one reading of words over a translation of `spokenText` neither interrupts it nor is
    /// the speaker going on (`verdict`, then `tooUnsure`), or nil when it counts.
    static func passesOver(_ text: String, confidence: Double?, spokenText: String) -> String? {
        verdict([text], spokenText: spokenText) ?? tooUnsure(text, confidence: confidence)
    }

    /// Lower-case words of `text`, without punctuation.
    static func words(_ text: String) -> [String] {
        text.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "'") }.map(String.init)
    }

    /// How the numbers 0–12 written in digits are said, in the languages Parley is tested in.
    static let numberWords: [String: [String]] = {
        let languages = [
            ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"],
            ["cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "once", "doce"],
            ["zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix", "onze", "douze"],
            ["null", "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn", "elf", "zwölf"],
        ]
        return Dictionary(uniqueKeysWithValues: (0...12).map { number in (String(number), languages.map { $0[number] }) })
    }()

    /// Sounds and words that acknowledge without taking the turn, in the languages Parley is tested in.
    static let backchannels: Set<String> = [
        "mm", "mmm", "mhm", "hm", "hmm", "uh", "um", "ah", "oh", "huh", "uh-huh", "yeah", "yes", "yep", "ok", "okay", "right",
        "sí", "si", "vale", "ajá", "aja", "claro", "eh", "oui", "ouais", "d'accord", "ja", "genau",
    ]
}
