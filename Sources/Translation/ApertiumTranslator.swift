public import Locales
public import Logging
public import ParleyCore

/// A translation with Apertium's unknown-word marks kept beside the clean text.
public struct MarkedTranslation: Sendable, Hashable {
    /// The clean result: the text (Apertium's, tidied by the target language's
    /// clean-up rules) and the unknown words.
    public var result: TranslationResult
    /// Apertium's text before the clean-up: identical to `apertium -u`.
    public var rawText: String
    /// The clean-up rules that changed the text (`opening-mark`, `capitalize-first`…); empty when none did.
    public var cleanups: [String] = []
    /// The text with marks, identical to `apertium DIRECTION`; nil when marks are turned off.
    public var markedText: String?
    /// The unknown words with what each mark means.
    public var unknownWords: [UnknownWord]
    /// The Apertium direction that translated it, e.g. `spa-eng_US`; the route's directions joined by `+` when pivoted.
    public var direction: String
    /// Each direction's own translation when the text went through another language; empty for a direct one.
    public var legs: [MarkedTranslation] = []
}

/// Translates with Apertium, keeping one long-lived pipeline per direction.
///
/// Locales map to Apertium codes through the locale catalog (`en-US` → `eng`
/// with variant `US`), and a direction with the target's variant is preferred
/// (`spa-eng_US` for en-US). Each direction runs two pipelines side by side:
/// a clean one, whose text is exactly what `apertium -u` prints, and a marked
/// one, whose marks name the unknown words. They are started on first use or
/// by `prepare(from:to:)`, restarted when they die or hang, and stopped by
/// `shutdown()`.
///
/// ```swift
/// let translator = ApertiumTranslator(locales: registry.catalog)
/// let result = try await translator.translate("Good morning", from: enUS, to: esES)
/// // result.text == "Buenos días"
/// ```
public actor ApertiumTranslator: Translator {
    /// How the translator behaves.
    public struct Configuration: Sendable {
        /// Where the `.mode` files are.
        public var modesDirectory: String
        /// Time and size limits per sentence.
        public var limits: TranslationLimits
        /// Whether to run the marked pipeline that finds unknown words.
        public var reportsUnknownWords: Bool
        /// The per-language tidying of Apertium's text (none by default: the text is `apertium -u`'s).
        public var cleanup: TranslationCleanup

        /// Creates a configuration; the defaults use Debian's modes directory and report unknown words.
        public init(modesDirectory: String = ApertiumModes.defaultDirectory, limits: TranslationLimits = TranslationLimits(),
                    reportsUnknownWords: Bool = true, cleanup: TranslationCleanup = TranslationCleanup()) {
            self.modesDirectory = modesDirectory
            self.limits = limits
            self.reportsUnknownWords = reportsUnknownWords
            self.cleanup = cleanup
        }
    }

    /// The installed directions, read when the translator was created.
    public nonisolated let modes: ApertiumModes
    /// The routes over the installed directions, direct and pivoted.
    public nonisolated let routes: TranslationRoutes
    private let locales: LocaleCatalog
    private let packages: ApertiumPackageIndex
    private let configuration: Configuration
    private let logger: Logger
    private var sessions: [String: DirectionSession] = [:]

    /// Creates a translator for the locales in `locales`; `packages` names what to install for a missing direction.
    public init(locales: LocaleCatalog, packages: ApertiumPackageIndex = ApertiumPackageIndex(),
                configuration: Configuration = Configuration(), logger: Logger = Logger(label: "parley.translation")) {
        self.modes = ApertiumModes(directory: configuration.modesDirectory)
        self.routes = TranslationRoutes(modes: modes)
        self.locales = locales
        self.packages = packages
        self.configuration = configuration
        self.logger = logger
    }

    /// Whether a route from `source` to `target` is installed, direct or through other languages (nothing is started).
    public func canTranslate(from source: LocaleTag, to target: LocaleTag) async -> Bool {
        (try? route(from: source, to: target)) != nil
    }

    /// Translates `text`: the text is `apertium -u`'s after the configured clean-up, and the unknown words are listed beside it.
    /// Throws `TranslationError` for a missing direction, refused text, or a pipeline that failed twice.
    public func translate(_ text: String, from source: LocaleTag, to target: LocaleTag) async throws -> TranslationResult {
        try await translateMarked(text, from: source, to: target).result
    }

    /// Translates `text` and keeps the marked text and the kinds of unknown words.
    /// Without a direct direction the text goes through the route's pivot languages, each leg a pipeline of its own.
    public func translateMarked(_ text: String, from source: LocaleTag, to target: LocaleTag) async throws -> MarkedTranslation {
        let route = try route(from: source, to: target)
        try validate(text)
        guard !text.allSatisfy(\.isWhitespace) else {
            return MarkedTranslation(result: TranslationResult(source: text, text: "", route: route.isDirect ? [] : route.shortLanguages),
                                     rawText: "", markedText: nil, unknownWords: [], direction: route.name)
        }
        var translation = try await translate(text, along: route)
        let cleaned = configuration.cleanup.apply(to: translation.rawText, language: target.language)
        translation.result.text = cleaned.text
        translation.cleanups = cleaned.applied
        return translation
    }

    /// Starts both pipelines of every direction on the route from `source` to `target` and warms them
    /// up, so the dialogue's first sentence does not pay for loading the dictionaries.
    public func prepare(from source: LocaleTag, to target: LocaleTag) async throws {
        for leg in try route(from: source, to: target).legs { try await session(for: leg).prepare() }
    }

    /// The route from `source` to `target`: the direct direction when installed, else the best chain
    /// (see `TranslationRoutes`). Throws `missingDirection`, naming the packages that would serve it, when there is none.
    public nonisolated func route(from source: LocaleTag, to target: LocaleTag) throws -> TranslationRoute {
        let sourceInfo = try info(for: source), targetInfo = try info(for: target)
        if let route = routes.best(from: sourceInfo.apertiumCode, to: targetInfo.apertiumCode, variant: targetInfo.apertiumVariant) {
            return route
        }
        throw missingDirection(source, target, sourceInfo, targetInfo)
    }

    /// The installed direction that translates `source` into `target`, preferring the target's variant.
    public nonisolated func direction(from source: LocaleTag, to target: LocaleTag) throws -> ApertiumDirection {
        let sourceInfo = try info(for: source), targetInfo = try info(for: target)
        let candidates = modes.directions(from: sourceInfo.apertiumCode, to: targetInfo.apertiumCode,
                                          variant: targetInfo.apertiumVariant)
        guard let chosen = candidates.first else { throw missingDirection(source, target, sourceInfo, targetInfo) }
        return chosen
    }

    /// Stops every pipeline, all at once (each gives its processes a grace to exit);
    /// later sentences start them again.
    public func shutdown() async {
        await withTaskGroup(of: Void.self) { group in
            for session in sessions.values { group.addTask { await session.stop() } }
        }
        sessions = [:]
    }

    /// Process groups of the running pipelines of one direction (for diagnostics and tests).
    public func processGroups(from source: LocaleTag, to target: LocaleTag) async throws -> [Int32] {
        var groups: [Int32] = []
        for leg in try route(from: source, to: target).legs { groups += await session(for: leg).processGroups() }
        return groups
    }

    /// How the drifted taggers of the route's pipelines were replaced so far (for tests and benchmarks).
    public func taggerReplacements(from source: LocaleTag, to target: LocaleTag) async throws -> TaggerReplacements {
        var total = TaggerReplacements()
        for leg in try route(from: source, to: target).legs { total = total + (await session(for: leg).taggerReplacements()) }
        return total
    }

    func session(for chosen: ApertiumDirection) -> DirectionSession {
        if let existing = sessions[chosen.name] { return existing }
        let created = DirectionSession(direction: chosen, configuration: configuration, logger: logger)
        sessions[chosen.name] = created
        return created
    }

    func validate(_ text: String) throws {
        if text.unicodeScalars.contains("\u{0}") {
            throw TranslationError.invalidInput("it contains a NUL character, which ends a sentence in Apertium's stream")
        }
        if text.count > configuration.limits.maximumCharacters {
            throw TranslationError.invalidInput(
                "it is \(text.count) characters long; the limit is \(configuration.limits.maximumCharacters)")
        }
    }

    /// The catalog's row for `tag`, or its language's; a locale no row names gets its
    /// language's ISO 639-3 code, as Apertium names languages (`is-IS` → `isl`).
    private nonisolated func info(for tag: LocaleTag) throws -> LocaleInfo {
        if let info = locales.info(for: tag) ?? locales.locales(ofLanguage: tag.language).first { return info }
        let (code, variant) = ApertiumLanguageCodes.code(for: tag, catalog: locales)
        guard code.count == 3 else { throw TranslationError.unknownLocale(tag) }  // no ISO 639-3 code: no such language
        return LocaleInfo(tag: tag, names: [], espeakVoice: nil, apertiumCode: code, apertiumVariant: variant)
    }

    private nonisolated func codes(of info: LocaleInfo) -> Set<String> {
        ApertiumLanguageCodes.forms(info.apertiumCode).union([info.tag.language])
    }

    /// The error for two locales no route joins, with the packages that would join them.
    private nonisolated func missingDirection(_ source: LocaleTag, _ target: LocaleTag,
                                              _ sourceInfo: LocaleInfo, _ targetInfo: LocaleInfo) -> TranslationError {
        if sourceInfo.apertiumCode == targetInfo.apertiumCode { return .sameLanguage(source, target) }
        let (from, to) = (codes(of: sourceInfo), codes(of: targetInfo))
        return .missingDirection(.init(
            source: source, target: target, wanted: "\(sourceInfo.apertiumCode)-\(targetInfo.apertiumCode)",
            installed: modes.directions.map(\.name), package: packages.package(pairing: from, with: to),
            throughPackages: packages.packages(joining: from, with: to, over: routes)))
    }
}
