import CPocketSphinx
import Foundation
import Testing
import TestSupport

/// PocketSphinx reached straight through its C module, before any wrapper.
@Suite struct PocketSphinxLibraryTests {
    @Test func decodesGoForwardWithThePackagedModel() throws {
        let model = Fixtures.englishModel
        let arguments = ["parley", "-hmm", "\(model)/en-us", "-lm", "\(model)/en-us.lm.bin",
                         "-dict", "\(model)/cmudict-en-us.dict", "-logfn", "/dev/null"]
        var cStrings = arguments.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        let config = cStrings.withUnsafeMutableBufferPointer { buffer in
            cmd_ln_parse_r(nil, ps_args(), Int32(buffer.count), buffer.baseAddress, 1)
        }
        let decoder = try #require(ps_init(config))
        defer {
            ps_free(decoder)
            cmd_ln_free_r(config)
        }
        let samples = try Fixtures.rawSamples(Fixtures.recording("goforward.raw"))
        #expect(ps_start_utt(decoder) == 0)
        let processed = samples.withUnsafeBufferPointer { buffer in
            ps_process_raw(decoder, buffer.baseAddress, buffer.count, 0, 1)
        }
        #expect(processed > 0)
        #expect(ps_end_utt(decoder) == 0)
        var score: Int32 = 0
        let hypothesis = ps_get_hyp(decoder, &score).map { String(cString: $0) }
        #expect(hypothesis == "go forward ten meters")
    }
}
