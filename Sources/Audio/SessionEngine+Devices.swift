import CPulseAudio

/// Listing the server's sinks and sources over the session's context.
extension SessionEngine {
    /// Every sink and source, defaults marked (`pa_context_get_server_info`,
    /// `pa_context_get_sink_info_list`, `pa_context_get_source_info_list`).
    func devices() async throws -> [AudioDevice] {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[AudioDevice], any Error>) in
            mainloop.withLock {
                guard phase == .ready, let context else {
                    let error: AudioSessionError = phase == .lost ? .serverLost : .notOpen
                    return continuation.resume(throwing: error)
                }
                DeviceQuery(continuation).start(on: context)
            }
        }
    }
}

/// One listing in flight: three server requests whose answers are joined.
/// It keeps itself alive (retained user data) until the last answer.
private final class DeviceQuery {
    private let continuation: CheckedContinuation<[AudioDevice], any Error>
    private var devices: [AudioDevice] = []
    private var defaultSink = ""
    private var defaultSource = ""
    private var pending = 3

    init(_ continuation: CheckedContinuation<[AudioDevice], any Error>) {
        self.continuation = continuation
    }

    /// Sends the three requests; the callbacks run on the mainloop thread.
    func start(on context: OpaquePointer) {
        let userData = Unmanaged.passRetained(self).toOpaque()
        let operations = [
            pa_context_get_server_info(context, { _, info, userData in
                let query = DeviceQuery.from(userData)
                query.defaultSink = info.map { text($0.pointee.default_sink_name) } ?? ""
                query.defaultSource = info.map { text($0.pointee.default_source_name) } ?? ""
                query.answered()
            }, userData),
            pa_context_get_sink_info_list(context, { _, info, endOfList, userData in
                let query = DeviceQuery.from(userData)
                if let sink = info?.pointee, endOfList == 0 {
                    query.devices.append(AudioDevice(kind: .sink, name: text(sink.name), description: text(sink.description),
                                                     sampleRate: Int(sink.sample_spec.rate),
                                                     channels: Int(sink.sample_spec.channels)))
                } else {
                    query.answered()
                }
            }, userData),
            pa_context_get_source_info_list(context, { _, info, endOfList, userData in
                let query = DeviceQuery.from(userData)
                if let source = info?.pointee, endOfList == 0 {
                    query.devices.append(AudioDevice(kind: .source, name: text(source.name),
                                                     description: text(source.description),
                                                     sampleRate: Int(source.sample_spec.rate),
                                                     channels: Int(source.sample_spec.channels),
                                                     isMonitor: source.monitor_of_sink != UInt32.max))
                } else {
                    query.answered()
                }
            }, userData),
        ]
        for operation in operations {
            if let operation { pa_operation_unref(operation) } else { answered() }
        }
    }

    private static func from(_ userData: UnsafeMutableRawPointer?) -> DeviceQuery {
        Unmanaged<DeviceQuery>.fromOpaque(userData!).takeUnretainedValue()
    }

    /// One request is complete; the last one delivers the list and releases the query.
    private func answered() {
        pending -= 1
        guard pending == 0 else { return }
        let list = devices.map { device in
            var device = device
            device.isDefault = device.name == (device.kind == .sink ? defaultSink : defaultSource)
            return device
        }
        continuation.resume(returning: list)
        Unmanaged.passUnretained(self).release()
    }
}

private func text(_ pointer: UnsafePointer<CChar>?) -> String {
    pointer.map { String(cString: $0) } ?? ""
}
