public import ParleyCore

/// When the steps of a turn happened, in seconds since the session started.
/// A step that did not happen (no speech for typed text, nothing spoken with
/// `--mute`) is nil and written as JSON `null`.
public struct TurnTimes: Sendable, Hashable {
    /// The recognizer heard speech start.
    public var speechStart: Double?
    /// Speech ended: the endpoint, or the moment the end-of-turn key was pressed.
    public var speechEnd: Double?
    /// The final text was there (recognized, or typed).
    public var recognized: Double?
    /// The translation came back.
    public var translated: Double?
    /// The first synthesized audio went to the speaker.
    public var speakStart: Double?
    /// The speaker finished playing (or was stopped).
    public var speakEnd: Double?

    /// Creates times; leave out the steps that did not happen.
    public init(speechStart: Double? = nil, speechEnd: Double? = nil, recognized: Double? = nil,
                translated: Double? = nil, speakStart: Double? = nil, speakEnd: Double? = nil) {
        self.speechStart = speechStart
        self.speechEnd = speechEnd
        self.recognized = recognized
        self.translated = translated
        self.speakStart = speakStart
        self.speakEnd = speakEnd
    }
}

/// One finished turn: a line of the transcript (SPEC §4).
public struct TranscriptEntry: Sendable, Hashable {
    /// 1 for the first finished turn of the session, then counting up.
    public var turn: Int
    /// Who spoke.
    public var side: DialogueSide
    /// The locale they spoke in.
    public var locale: LocaleTag
    /// Speech or typed text.
    public var input: InputKind
    /// What they said, as recognized (and corrected) or typed.
    public var text: String
    /// The recognizer's confidence in `text`; nil for typed text.
    public var confidence: Double?
    /// The locale it was translated into.
    public var targetLocale: LocaleTag
    /// The translation.
    public var translation: String
    /// Words the translator did not know.
    public var unknownWords: [String]
    /// The glossary and phrasebook entries the translation used (`source → target`); written only when there are some.
    public var glossary: [String]
    /// When each step happened.
    public var times: TurnTimes
    /// How a hands-free turn was given to its side (written last, only for such turns).
    public var assignment: SideAssignment?
    /// The languages the translation went through (`["fr", "es", "en"]`) when it was pivoted; empty when direct.
    public var route: [String]
    /// When a person interrupted the spoken translation: how many seconds of it were played.
    /// Nil when it was played to the end, or not spoken.
    public var playedSeconds: Double?
    /// A turn interpreted while it was spoken (`--simultaneous`): its clauses, in order.
    public var clauses: [ClauseRecord]?

    /// Creates an entry.
    public init(turn: Int, side: DialogueSide, locale: LocaleTag, input: InputKind, text: String,
                confidence: Double?, targetLocale: LocaleTag, translation: String,
                unknownWords: [String], glossary: [String] = [], times: TurnTimes,
                assignment: SideAssignment? = nil, route: [String] = [], playedSeconds: Double? = nil,
                clauses: [ClauseRecord]? = nil) {
        self.clauses = clauses
        self.assignment = assignment
        self.playedSeconds = playedSeconds
        self.turn = turn
        self.side = side
        self.locale = locale
        self.input = input
        self.text = text
        self.confidence = confidence
        self.targetLocale = targetLocale
        self.translation = translation
        self.unknownWords = unknownWords
        self.glossary = glossary
        self.times = times
        self.route = route
    }

    /// The entry as one line of JSON, fields in the order of SPEC §4, no newline; a pivoted
    /// translation adds `"pivots"` and `"route"` before `"times"`.
    /// An interrupted translation adds `"interrupted":true` and `"played_seconds"` after `"times"`;
    /// a turn interpreted while it was spoken adds `"clauses"` after them.
    /// Times and confidence are rounded to milliseconds (thousandths).
    public var jsonLine: String {
        var json = JSONLine()
        json.field("turn", number: Double(turn))
        json.field("side", string: side.rawValue)
        json.field("locale", string: locale.description)
        json.field("input", string: input.rawValue)
        json.field("text", string: text)
        json.field("confidence", number: confidence)
        json.field("target_locale", string: targetLocale.description)
        json.field("translation", string: translation)
        json.field("unknown_words", strings: unknownWords)
        if !glossary.isEmpty { json.field("glossary", strings: glossary) }
        if route.count > 2 {
            json.field("pivots", strings: Array(route.dropFirst().dropLast()))
            json.field("route", strings: route)
        }
        json.field("times", object: timesObject)
        if let playedSeconds {
            json.field("interrupted", object: "true")
            json.field("played_seconds", number: playedSeconds)
        }
        if let clauses {
            json.field("simultaneous", object: "true")
            json.field("clauses", object: "[" + clauses.map(\.jsonObject).joined(separator: ",") + "]")
        }
        if let assignment { json.field("assignment", object: assignment.jsonObject) }
        return json.finished
    }

    private var timesObject: String {
        var json = JSONLine()
        json.field("speech_start", number: times.speechStart)
        json.field("speech_end", number: times.speechEnd)
        json.field("recognized", number: times.recognized)
        json.field("translated", number: times.translated)
        json.field("speak_start", number: times.speakStart)
        json.field("speak_end", number: times.speakEnd)
        return json.finished
    }
}

/// One clause of a turn interpreted while it was spoken: what was committed, its translation,
/// and when each happened, in session seconds (the transcript's `times` base).
public struct ClauseRecord: Sendable, Hashable {
    /// The committed words.
    public var text: String
    /// Its translation, as spoken.
    public var translation: String
    /// Where the clause's first word starts and its last word ends, in the speaker's audio.
    public var sourceStart: Double
    public var sourceEnd: Double
    /// When the recognizer committed it (for the tail: when the endpoint's decode gave it).
    public var committed: Double
    /// When its translation was ready.
    public var translated: Double?
    /// When its speech started and ended; nil when it was not spoken (muted, cancelled).
    public var speakStart: Double?
    public var speakEnd: Double?
    /// How many times the listening side's rate it was spoken at (1 unless the listener fell behind).
    public var speed: Double
    /// Whether it is the tail decoded at the endpoint.
    public var isTail: Bool
    /// How much the audio it was committed from sounded like the listener's language (0…1, the
    /// recognizer's `RecognizedClause.otherLanguageShare`); nil where it was not asked.
    public var otherLanguageShare: Double?

    public init(text: String, translation: String, sourceStart: Double, sourceEnd: Double, committed: Double,
                translated: Double? = nil, speakStart: Double? = nil, speakEnd: Double? = nil,
                speed: Double = 1, isTail: Bool = false, otherLanguageShare: Double? = nil) {
        self.text = text
        self.translation = translation
        self.sourceStart = sourceStart
        self.sourceEnd = sourceEnd
        self.committed = committed
        self.translated = translated
        self.speakStart = speakStart
        self.speakEnd = speakEnd
        self.speed = speed
        self.isTail = isTail
        self.otherLanguageShare = otherLanguageShare
    }

    /// `{"text":…,"translation":…,"source_start":…,"source_end":…,"committed":…,"translated":…,
    /// "speak_start":…,"speak_end":…,"speed":…,"tail":…}`, and `"other_language":…` where
    /// the share was asked.
    var jsonObject: String {
        var json = JSONLine()
        json.field("text", string: text)
        json.field("translation", string: translation)
        json.field("source_start", number: sourceStart)
        json.field("source_end", number: sourceEnd)
        json.field("committed", number: committed)
        json.field("translated", number: translated)
        json.field("speak_start", number: speakStart)
        json.field("speak_end", number: speakEnd)
        json.field("speed", number: speed)
        json.field("tail", object: isTail ? "true" : "false")
        if let otherLanguageShare { json.field("other_language", number: otherLanguageShare) }
        return json.finished
    }
}

/// Builds a JSON object with its fields in the order they are added
/// (JSONEncoder does not promise an order, and the transcript's is fixed).
struct JSONLine {
    private var fields: [String] = []

    mutating func field(_ key: String, string: String) {
        fields.append("\(Self.quoted(key)):\(Self.quoted(string))")
    }

    mutating func field(_ key: String, number: Double?) {
        fields.append("\(Self.quoted(key)):\(number.map(Self.formatted) ?? "null")")
    }

    mutating func field(_ key: String, strings: [String]) {
        fields.append("\(Self.quoted(key)):[\(strings.map(Self.quoted).joined(separator: ","))]")
    }

    mutating func field(_ key: String, object: String) {
        fields.append("\(Self.quoted(key)):\(object)")
    }

    var finished: String { "{\(fields.joined(separator: ","))}" }

    /// An integer as `3`, anything else rounded to thousandths: `0.61`, `1.234`.
    static func formatted(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(rounded)) }
        return String(rounded)
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped, the rest as UTF-8.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
