import ParleyCore

/// One listing in flight: three server requests whose answers are joined.
/// The requests' callbacks keep it alive until the last answer.
final class DeviceQuery {
    private let continuation: CheckedContinuation<[AudioDevice], any Error>
    private var devices: [AudioDevice] = []
    private var defaults = (sink: "", source: "")
    private var pending = 3

    init(_ continuation: CheckedContinuation<[AudioDevice], any Error>) {
        self.continuation = continuation
    }

    /// Sends the three requests; the answers arrive on the mainloop thread.
    func start(on context: PulseContext) {
        let operations = [
            context.serverInfo { [self] info in
                defaults = (info?.defaultSink ?? "", info?.defaultSource ?? "")
                answered()
            },
            context.sinks { [self] device in add(device) },
            context.sources { [self] device in add(device) },
        ]
        for operation in operations where operation == nil { answered() }
    }

    /// One device of a list, or its end.
    private func add(_ device: AudioDevice?) {
        guard let device else { return answered() }
        devices.append(device)
    }

    /// One request is complete; the last one delivers the list.
    private func answered() {
        pending -= 1
        guard pending == 0 else { return }
        let list = devices.map { device in
            var device = device
            device.isDefault = device.name == (device.kind == .sink ? defaults.sink : defaults.source)
            return device
        }
        continuation.resume(returning: list)
    }
}
