/// A failure of one stage that the dialogue reports and survives.
///
/// Engines throw their own error types; this wraps anything a stage throws
/// with the stage's name, so the dialogue can print "translation failed: …".
public struct StageError: Error, Sendable, CustomStringConvertible {
    /// The pipeline stage that failed.
    public enum Stage: String, Sendable {
        case audio, recognition, translation, synthesis
    }

    /// Which stage failed.
    public var stage: Stage
    /// What the stage said.
    public var message: String

    /// Wraps a stage's error.
    public init(_ stage: Stage, _ error: any Error) {
        self.stage = stage
        self.message = String(describing: error)
    }

    public var description: String { "\(stage.rawValue) failed: \(message)" }
}
