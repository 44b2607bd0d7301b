import CPulseAudio

/// A libpulse property list (`pa_proplist`), for naming contexts and streams.
///
/// Used only while a context or stream is created: libpulse copies it.
final class PulsePropertyList {
    /// The `pa_proplist`, freed with this object.
    let handle: OpaquePointer

    /// An empty list (`pa_proplist_new`).
    init() {
        handle = pa_proplist_new()
    }

    /// The application's name (`PA_PROP_APPLICATION_NAME`).
    static let applicationName = PA_PROP_APPLICATION_NAME
    /// What a stream is for, e.g. `phone` (`PA_PROP_MEDIA_ROLE`).
    static let mediaRole = PA_PROP_MEDIA_ROLE

    /// Sets `key` to the string `value` (`pa_proplist_sets`).
    func set(_ key: String, to value: String) {
        pa_proplist_sets(handle, key, value)
    }

    /// Frees the list (`pa_proplist_free`).
    deinit {
        pa_proplist_free(handle)
    }
}
