/// An error a fake engine throws on request.
public struct FakeFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What the fake says went wrong.
    public var message: String

    /// Creates a failure with a message.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
