import CPulseAudio

/// A libpulse error code (`PA_ERR_*`), described in libpulse's own words.
///
/// Wrappers turn a failed `pa_*` call into this error, read from the context
/// (`pa_context_errno`) that the call reports through.
struct PulseError: Error, RawRepresentable, Equatable, CustomStringConvertible {
    /// The `pa_error_code_t` value.
    let rawValue: Int32

    /// Wraps a libpulse error code.
    init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The entity named (a device, a stream) does not exist: `PA_ERR_NOENTITY`.
    static let noEntity = PulseError(rawValue: Int32(PA_ERR_NOENTITY.rawValue))

    /// libpulse's message for the code (`pa_strerror`).
    var description: String { String(cString: pa_strerror(rawValue)) }
}
