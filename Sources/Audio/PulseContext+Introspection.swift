import CPulseAudio

/// Asking the server about itself and its devices. Each answer arrives on the
/// mainloop's thread; a list ends with one nil.
extension PulseContext {
    /// The server's name, version and defaults (`pa_context_get_server_info`).
    func serverInfo(_ answer: @escaping (AudioServerInfo?) -> Void) -> PulseOperation? {
        let callback = PulseCallback<AudioServerInfo?>.retained(answer)
        return PulseOperation(pa_context_get_server_info(handle, { _, info, userData in
            PulseCallback<AudioServerInfo?>.call(userData, with: info.map { AudioServerInfo($0.pointee) })
        }, callback.userData), callback: callback)
    }

    /// Every sink, then nil (`pa_context_get_sink_info_list`).
    func sinks(_ answer: @escaping (AudioDevice?) -> Void) -> PulseOperation? {
        let callback = PulseCallback<AudioDevice?>.retained(answer)
        return PulseOperation(pa_context_get_sink_info_list(handle, { _, info, endOfList, userData in
            let device = endOfList == 0 ? info.map { AudioDevice(sink: $0.pointee) } : nil
            PulseCallback<AudioDevice?>.call(userData, with: device, last: device == nil)
        }, callback.userData), callback: callback)
    }

    /// Every source, then nil (`pa_context_get_source_info_list`).
    func sources(_ answer: @escaping (AudioDevice?) -> Void) -> PulseOperation? {
        let callback = PulseCallback<AudioDevice?>.retained(answer)
        return PulseOperation(pa_context_get_source_info_list(handle, { _, info, endOfList, userData in
            let device = endOfList == 0 ? info.map { AudioDevice(source: $0.pointee) } : nil
            PulseCallback<AudioDevice?>.call(userData, with: device, last: device == nil)
        }, callback.userData), callback: callback)
    }
}

extension AudioServerInfo {
    /// Reads libpulse's `pa_server_info`.
    init(_ info: pa_server_info) {
        self.init(serverName: text(info.server_name), version: text(info.server_version),
                  defaultSink: text(info.default_sink_name), defaultSource: text(info.default_source_name))
    }
}

extension AudioDevice {
    /// Reads libpulse's `pa_sink_info`.
    init(sink: pa_sink_info) {
        self.init(kind: .sink, name: text(sink.name), description: text(sink.description),
                  sampleRate: Int(sink.sample_spec.rate), channels: Int(sink.sample_spec.channels))
    }

    /// Reads libpulse's `pa_source_info`.
    init(source: pa_source_info) {
        self.init(kind: .source, name: text(source.name), description: text(source.description),
                  sampleRate: Int(source.sample_spec.rate), channels: Int(source.sample_spec.channels),
                  isMonitor: source.monitor_of_sink != UInt32.max)
    }
}

/// A C string from libpulse, "" for none.
private func text(_ pointer: UnsafePointer<CChar>?) -> String {
    pointer.map { String(cString: $0) } ?? ""
}
