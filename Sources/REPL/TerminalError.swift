/// The terminal could not be set up.
public struct TerminalError: Error, Sendable, CustomStringConvertible {
    /// One sentence.
    public var message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}
