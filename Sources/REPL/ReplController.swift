public import Dialogue
public import ParleyCore
import Foundation

/// What a person did at the keyboard (or what standard input delivered).
public enum ReplInput: Sendable, Equatable {
    /// A line: typed input, a `:` command, or empty (the end-of-turn key).
    case line(String)
    /// Ctrl-D, or the end of standard input.
    case endOfInput
    /// Ctrl-C.
    case interrupt
    /// SIGTERM, or SIGHUP (the terminal closed).
    case terminate
    /// A line of standard input whose bytes are not UTF-8 text (a pipe fed Latin-1, say).
    case notText
}

/// What the REPL needs from the rest of the program; the executable fills it
/// from the real locale tables and pronunciation dictionaries.
public struct ReplServices: Sendable {
    /// Turns what a person typed after `:a`/`:b` into a locale, or throws a one-sentence error.
    public var resolveLocale: @Sendable (String) throws -> LocaleTag
    /// The `:languages` text.
    public var languages: @Sendable () async -> String
    /// Runs `:dict …` with its arguments and returns what to print.
    public var dictionary: @Sendable ([String]) async -> String
    /// Runs `:glossary …` with its arguments and returns what to print.
    public var glossary: @Sendable ([String]) async -> String = { _ in "translation glossaries are unavailable" }
    /// Runs `:recognizer`: the locales of sides A and B, the side to change and the recognizer
    /// to choose (both nil to show); returns what to print.
    public var recognizer: @Sendable (_ a: LocaleTag, _ b: LocaleTag, _ side: DialogueSide?, _ name: String?) async -> String
    /// Runs `:phrases` with what followed it (nil to show); returns what to print.
    public var phrases: @Sendable (String?) async -> String
    /// Tab completion candidates.
    public var completion: CompletionSource

    /// Creates services; the defaults accept canonical locale tags only and have no dictionary.
    public init(resolveLocale: @escaping @Sendable (String) throws -> LocaleTag = ReplServices.parseTag,
                languages: @escaping @Sendable () async -> String = { "no language overview is available" },
                dictionary: @escaping @Sendable ([String]) async -> String = { _ in "pronunciation dictionaries are unavailable" },
                recognizer: @escaping @Sendable (LocaleTag, LocaleTag, DialogueSide?, String?) async -> String
                    = { _, _, _, _ in "speech recognition is unavailable" },
                phrases: @escaping @Sendable (String?) async -> String = { _ in "speech recognition is unavailable" },
                completion: CompletionSource = CompletionSource()) {
        self.resolveLocale = resolveLocale
        self.languages = languages
        self.dictionary = dictionary
        self.recognizer = recognizer
        self.phrases = phrases
        self.completion = completion
    }

    /// Accepts a well-formed tag such as `fr-FR`.
    public static let parseTag: @Sendable (String) throws -> LocaleTag = { text in
        guard let tag = LocaleTag(text) else { throw CommandError("'\(text)' is not a locale such as fr-FR") }
        return tag
    }
}

/// The REPL's logic, apart from the terminal: renders the coordinator's
/// events through a `LineEditor` and turns input lines into typed turns,
/// end-of-turn keys and commands.
public actor ReplController {
    private let coordinator: TurnCoordinator
    private let editor: any LineEditor
    private let services: ReplServices
    private var renderer: EventRenderer
    /// Whether `renderEvents()` is showing the conversation's events, and how many it has shown.
    private var rendering = false
    private var renderedEvents = 0
    private var renderWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    /// A signal ended the conversation (`terminate()`).
    private var terminated = false

    /// Creates a controller. `interactive` is true on a terminal: an empty line is
    /// the end-of-turn key and commands apply at once; on a pipe each line waits
    /// until the conversation is ready for it, so lines are processed in order.
    public init(coordinator: TurnCoordinator, editor: any LineEditor, services: ReplServices,
                interactive: Bool, style: ConsoleStyle) {
        self.coordinator = coordinator
        self.editor = editor
        self.services = services
        renderer = EventRenderer(interactive: interactive, style: style)
    }

    /// Shows the conversation's events until they end. Call `beginRendering()` first, so that
    /// lines handled before this task runs already wait for the events before them.
    public func renderEvents() async {
        rendering = true
        for await event in coordinator.events { render(event) }
        rendering = false
        let waiters = renderWaiters
        renderWaiters = []
        waiters.forEach { $0.continuation.resume() }
    }

    /// Marks that `renderEvents()` will show the conversation's events.
    public func beginRendering() {
        rendering = true
    }

    /// Shows one event.
    public func render(_ event: DialogueEvent) {
        defer { eventRendered() }
        for action in renderer.render(event) { editor.perform(action) }
    }

    /// SIGTERM or SIGHUP arrived: the conversation ends now (speech stops, the turn in
    /// progress is written), whatever input is being handled; later input is not taken.
    public func terminate() async {
        terminated = true
        await coordinator.stop()
    }

    /// Handles one input; returns false when the REPL should leave.
    public func handle(_ input: ReplInput) async -> Bool {
        guard !terminated else { return false }
        switch input {
        case let .line(raw):
            return await handleLine(raw.trimmingCharacters(in: .whitespaces))
        case .endOfInput:
            if renderer.interactive { await coordinator.stop() } else { await coordinator.finishAndStop() }
            return false
        case .interrupt:
            await coordinator.cancel()
            return true
        case .terminate:
            await coordinator.stop()
            return false
        case .notText:
            if !renderer.interactive {
                await coordinator.waitUntilReady()
                await catchUpWithEvents()
            }
            editor.printLine(renderer.style.paint(
                "error: a line of the input is not UTF-8 text and was not taken; \(TextInput.conversionHint)", .red))
            return true
        }
    }

    private func eventRendered() {
        renderedEvents += 1
        let due = renderWaiters.filter { $0.count <= renderedEvents }
        renderWaiters.removeAll { $0.count <= renderedEvents }
        due.forEach { $0.continuation.resume() }
    }

    /// Returns when every event the conversation has emitted so far is shown, so that what this
    /// controller prints itself comes after them (over a pipe, answers keep the order of the lines).
    private func catchUpWithEvents() async {
        guard rendering else { return }
        let emitted = await coordinator.emittedEvents
        guard renderedEvents < emitted else { return }
        await withCheckedContinuation { renderWaiters.append((emitted, $0)) }
    }

    private func handleLine(_ line: String) async -> Bool {
        if !renderer.interactive {
            await coordinator.waitUntilReady()
            await catchUpWithEvents()
        }
        guard !terminated else { return false }
        if line.hasPrefix(":") {
            switch CommandParser.parse(line) {
            case let .success(command): return await execute(command)
            case let .failure(error): editor.printLine(renderer.style.paint("error: \(error)", .red))
            }
        } else if line.isEmpty, renderer.interactive {
            await coordinator.endTurn()
        } else {
            await coordinator.submitTyped(line)
        }
        return true
    }

    /// Runs a command; returns false for `:quit`.
    func execute(_ command: ReplCommand) async -> Bool {
        switch command {
        case .quit:
            await coordinator.stop()
            return false
        case let .help(command): editor.printLine(CommandParser.helpText(for: command))
        case .swap: await coordinator.swap()
        case let .locale(side, text): await changeLocale(side, text)
        case let .voice(side, identifier): await coordinator.setVoice(identifier, for: side)
        case let .rate(side, rate): await coordinator.setRate(rate, for: side)
        case let .mode(mode): await coordinator.setMode(mode)
        case let .turns(turns): await coordinator.setTurnTaking(turns)
        case .flip: await coordinator.flip()
        case let .say(text): await coordinator.say(text)
        case .repeatLast: await coordinator.repeatLast()
        case let .dictionary(arguments): editor.printLine(await services.dictionary(arguments))
        case let .glossary(arguments): editor.printLine(await services.glossary(arguments))
        case let .transcript(path): await transcript(path)
        case .languages: editor.printLine(await services.languages())
        case let .correction(on): await coordinator.setCorrection(on)
        case let .bargeIn(on): await coordinator.setBargeIn(on)
        case let .simultaneous(on): await coordinator.setSimultaneous(on)
        case let .recognizer(side, name):
            let configuration = await coordinator.configuration
            editor.printLine(await services.recognizer(configuration[.a].locale, configuration[.b].locale, side, name))
        case let .phrases(text): editor.printLine(await services.phrases(text))
        }
        return true
    }

    private func changeLocale(_ side: DialogueSide, _ text: String) async {
        do {
            await coordinator.setLocale(try services.resolveLocale(text), for: side)
        } catch {
            editor.printLine(renderer.style.paint("error: \(error)", .red))
        }
    }

    private func transcript(_ path: String?) async {
        if let path {
            await coordinator.switchTranscript(to: (path as NSString).expandingTildeInPath)
        } else {
            let current = await coordinator.transcriptPath
            editor.printLine(current.map { "transcript: \($0)" } ?? "the transcript is not being written; :transcript FILE starts it")
        }
    }
}
