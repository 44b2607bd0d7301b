import Audio
import Logging
import ParleyCore
import Synthesis

/// Where `parley say` and `parley dict say` send speech: a WAV file with `--out`,
/// otherwise the speaker through an audio session.
struct SpeechOutput {
    /// The sink to speak into.
    let sink: any AudioSink
    /// The WAV file, when speech goes to one.
    let file: WAVFileSink?

    /// Opens the file at `path`, or the audio session `common` describes.
    init(file path: String?, common: CommonOptions) async throws {
        if let path {
            let file = try WAVFileSink(path: path)
            (sink, self.file) = (file, file)
        } else {
            let session = try await common.openAudioSession(withoutServer: "--out")
            (sink, file) = (session, nil)
        }
    }

    /// Closes the sink; a file is finished first, so a failed write is an error.
    func close() async throws {
        try file?.finish()
        await sink.close()
    }
}
