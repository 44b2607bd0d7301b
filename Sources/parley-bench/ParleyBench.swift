import ArgumentParser
import Foundation

/// `parley-bench`: the measurements behind BENCHMARKS.md.
///
/// Each area is a subcommand that times Parley's own path against the naive
/// command-line pipeline in the same run and writes a Markdown section to
/// `benchmarks/<area>.md`; `scripts/bench.sh` joins the sections into
/// BENCHMARKS.md.
@main
struct ParleyBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parley-bench",
        abstract: "Measure Parley against the naive command-line pipeline.",
        subcommands: benchmarkAreas)
}
