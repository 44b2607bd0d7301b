import CSampleRate
import ParleyCore

/// One mono stream converted between rates block by block (`src_new`, `src_process`,
/// `src_delete`) with libsamplerate's best sinc converter, so a long file never has
/// to be held whole; the output is that of converting the stream in one call.
package final class SampleRateConverter {
    private let state: OpaquePointer
    private let ratio: Double
    private let path: String

    /// A converter from `sourceRate` to `targetRate`; `path` names the file in errors.
    package init(from sourceRate: Int, to targetRate: Int, path: String) throws {
        var error: Int32 = 0
        guard let state = src_new(Int32(SRC_SINC_BEST_QUALITY), 1, &error) else {
            throw RecognitionError.unreadableAudio(path: path, reason: String(cString: src_strerror(error)))
        }
        self.state = state
        ratio = Double(targetRate) / Double(sourceRate)
        self.path = path
    }

    deinit { src_delete(state) }

    /// The converted samples `input` yields now; with `end`, also what the filter still holds.
    package func process(_ input: [Float], end: Bool) throws -> [Float] {
        var output: [Float] = []
        var buffer = [Float](repeating: 0, count: Int(Double(input.count) * ratio) + 1_024)
        var offset = 0
        while true {
            let (used, generated) = try step(input, from: offset, into: &buffer, end: end)
            offset += used
            output += buffer.prefix(generated)
            let inputLeft = offset < input.count
            if !inputLeft && (!end || generated == 0) { break }
            if inputLeft && used == 0 && generated == 0 { break }
        }
        return output
    }

    /// One `src_process` call: samples of `input` consumed from `offset`, samples written to `buffer`.
    private func step(_ input: [Float], from offset: Int, into buffer: inout [Float], end: Bool) throws -> (Int, Int) {
        var data = SRC_DATA()
        let status = input.withUnsafeBufferPointer { source in
            buffer.withUnsafeMutableBufferPointer { target in
                data = SRC_DATA(data_in: source.baseAddress.map { $0 + offset }, data_out: target.baseAddress,
                                input_frames: source.count - offset, output_frames: target.count,
                                input_frames_used: 0, output_frames_gen: 0, end_of_input: end ? 1 : 0, src_ratio: ratio)
                return src_process(state, &data)
            }
        }
        guard status == 0 else {
            throw RecognitionError.unreadableAudio(path: path, reason: String(cString: src_strerror(status)))
        }
        return (data.input_frames_used, data.output_frames_gen)
    }
}
