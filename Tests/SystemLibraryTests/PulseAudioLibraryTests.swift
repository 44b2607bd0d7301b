import CPulseAudio
import Testing
import TestSupport

/// The PulseAudio client library reached through its C module.
@Suite struct PulseAudioLibraryTests {
    @Test func parsesTheRecognizerSampleSpec() {
        var spec = pa_sample_spec(format: PA_SAMPLE_S16LE, rate: 16_000, channels: 1)
        #expect(pa_sample_spec_valid(&spec) != 0)
        #expect(pa_bytes_per_second(&spec) == 32_000)
        #expect(String(cString: pa_get_library_version()).hasPrefix("1"))
    }
}
