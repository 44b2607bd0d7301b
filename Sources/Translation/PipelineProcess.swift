import ChildProcesses

/// One running Apertium pipeline (or part of one): `/bin/sh -c SCRIPT` with its stages in a
/// process group of their own, answering each request at the null flush byte.
///
/// The script is the mode's pipeline as `apertium-wblank-mode` prints it; the text to
/// translate only ever travels through standard input, never through a command line. The
/// own process group lets `terminate(grace:)` kill every stage at once, and keeps a
/// terminal's Ctrl-C away from the pipeline. `StreamChild` does the rest.
///
/// Not thread-safe: its owner (`ApertiumPipeline`) touches it from one serial queue only.
typealias PipelineProcess = StreamChild

extension StreamChild {
    /// How a pipeline's failures name it.
    static let pipelineName = "the pipeline"

    /// Starts `script` with `arguments` as `$1`, `$2`… and `environment` as its whole environment.
    convenience init(script: String, arguments: [String], environment: [String: String]) throws {
        try self.init(["/bin/sh", "-c", script, "sh"] + arguments, environment: environment,
                      name: Self.pipelineName, delimiter: ApertiumStreamFormat.flush)
    }
}
