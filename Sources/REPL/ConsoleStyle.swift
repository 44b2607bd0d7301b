import Foundation

/// Colours for a terminal, or none: off on a pipe and whenever `NO_COLOR` is set.
public struct ConsoleStyle: Sendable {
    /// Whether escape codes are written at all.
    public var colours: Bool

    /// Creates a style.
    public init(colours: Bool) {
        self.colours = colours
    }

    /// Colours when standard output is a terminal and `NO_COLOR` is unset or empty.
    public static func detect(environment: [String: String]? = nil) -> ConsoleStyle {
        let environment = environment ?? ProcessInfo.processInfo.environment
        let noColour = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        return ConsoleStyle(colours: isatty(STDOUT_FILENO) == 1 && !noColour)
    }

    /// SGR codes used.
    enum Tone: String {
        case bold = "1", dim = "2", red = "31", green = "32", yellow = "33", cyan = "36"
    }

    func paint(_ text: String, _ tone: Tone) -> String {
        colours ? "\u{1B}[\(tone.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// Like `paint`, with readline's markers around the escape codes so the
    /// prompt's width is computed without them.
    func paintPrompt(_ text: String, _ tone: Tone) -> String {
        colours ? "\u{01}\u{1B}[\(tone.rawValue)m\u{02}\(text)\u{01}\u{1B}[0m\u{02}" : text
    }
}
