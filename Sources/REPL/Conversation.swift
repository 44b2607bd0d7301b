import Dialogue

/// The conversation a `ReplController` drives: a dialogue (`TurnCoordinator`, see
/// DialogueConversation.swift) or a room (`RoomCoordinator`, RoomConversation.swift).
///
/// What both do alike (starting, stopping, pacing a pipe, showing events, Ctrl-D and signals)
/// the controller does once; where their commands differ, the conversation answers a line
/// with values the controller shows.
protocol Conversation: Actor {
    /// What the conversation reports, in order.
    associatedtype Event: ShownEvent
    /// Every event, until the conversation ends.
    nonisolated var events: AsyncStream<Event> { get }
    /// How many events were handed to `events`.
    var emittedEvents: Int { get }
    /// Opens the microphones; returns once the conversation listens.
    func start() async
    /// Ends the conversation now: speech stops, and what was in progress is written.
    func stop() async
    /// Ends the conversation once what was begun is done (the end of a pipe's input).
    func finishAndStop() async
    /// Returns when a line read from a pipe may be taken: once what the lines before it set off is done.
    func waitForPipedLine() async
    /// Ctrl-C: what it cancels, and what to show.
    func interrupt() async -> [LineAnswer]
    /// Acts on a line that is not empty or is the end-of-turn key; returns what to show.
    func answer(_ line: String, in context: LineContext) async -> [LineAnswer]
}

/// An event a renderer shows: `DialogueEvent` or `RoomEvent`.
protocol ShownEvent: Sendable {
    /// The actions for this event, from `renderer`'s point in the conversation.
    func actions(in renderer: inout EventRenderer) -> [EditorAction]
}

extension DialogueEvent: ShownEvent {
    func actions(in renderer: inout EventRenderer) -> [EditorAction] { renderer.render(self) }
}

extension RoomEvent: ShownEvent {
    func actions(in renderer: inout EventRenderer) -> [EditorAction] { renderer.render(self) }
}

/// What a conversation answers to a line, for the controller to show or do.
enum LineAnswer: Sendable, Equatable {
    /// A line printed as it is.
    case line(String)
    /// A dimmed line.
    case note(String)
    /// `error: TEXT`, in red.
    case error(String)
    /// A room's typed lines go to party N from now on.
    case typeAs(Int)
    /// The REPL ends (`:quit`).
    case leave
}

/// What a conversation needs to know to answer a line.
struct LineContext: Sendable {
    /// Whether the REPL runs on a terminal (an empty line is the end-of-turn key) or a pipe.
    var interactive: Bool
    /// The program's services (`:dict`, `:languages`, locales…).
    var services: ReplServices
    /// In a room, the party a plain line is said as.
    var typingAs: Int
}
