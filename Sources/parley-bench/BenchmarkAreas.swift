import ArgumentParser

/// Every benchmark area, one subcommand each. Add new areas here.
let benchmarkAreas: [any ParsableCommand.Type] = [
    // areas:
    TranslationBenchmark.self,
    QualityBenchmark.self,
    GlossaryBenchmark.self,
    SynthesisBenchmark.self,
    RecognitionBenchmark.self,
    WhisperBenchmark.self,
    WeightsBenchmark.self,
    SidesBenchmark.self,
    PairsBenchmark.self,
    StabilityBenchmark.self,
    QuietBenchmark.self,
    AudioBenchmark.self,
    DialogueBenchmark.self,
    SoakBenchmark.self,
    WhisperSoakBenchmark.self,
    WhisperLongBenchmark.self,
    EchoBenchmark.self,
    BargeInBenchmark.self,
    SimultaneousBenchmark.self,
    RoomBenchmark.self,
    BaselineBenchmark.self,
    WyomingBenchmark.self,
]
