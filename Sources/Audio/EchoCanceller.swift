import Foundation

/// The server's echo canceller (`module-echo-cancel`, WebRTC's canceller) set between the
/// conversation's microphone and speaker: Parley records from its source and plays into its
/// sink, and the server subtracts what the speaker plays from what the microphone hears.
///
/// A module outlives the client that loaded it, so each carries its owner in its device
/// names (`parley_ec.HOST.PID.START[.TAG].source`/`.sink`, START the process's start time in
/// clock ticks since boot, so a reused process id is not taken for the owner; TAG tells apart
/// two cancellers of one process, a side's each): `load` first removes
/// the cancellers of this host whose process has gone (killed, crashed), and `unload` removes
/// its own at exit.
/// PulseAudio and pipewire-pulse both take the module through the pulse protocol.
public struct EchoCanceller: Sendable, Equatable {
    /// The module's index on the server.
    public var module: UInt32
    /// The cancelled capture device to record from.
    public var source: String
    /// The playback device to play into: the canceller's reference.
    public var sink: String
    /// The process that loaded it.
    public var owner: Int32

    /// The device-name prefix of every canceller Parley loads.
    public static let prefix = "parley_ec"

    /// Loads a canceller between `source` and `sink` (nil: the server's defaults) on `server`
    /// (authenticating with `cookie`, nil for libpulse's own), after removing the leftovers of
    /// Parley processes of this host that are gone. `tag` (letters and digits) tells apart two
    /// cancellers of this process. `noiseSuppression` turns the canceller's noise suppressor on
    /// (the server's default; Parley's is off). Throws `EchoCancellerUnavailable` with the reason
    /// when the server refuses it.
    public static func load(server: String?, source: String?, sink: String?, cookie: PulseCookie? = nil,
                            tag: String? = nil, timeout: Double = 5, noiseSuppression: Bool = false) throws -> EchoCanceller {
        let connection = try OneShotConnection(server: server, name: "Parley echo canceller", timeout: timeout, cookie: cookie)
        _ = removeLeftovers(connection)
        let owner = getpid()
        let name = "\(prefix).\(hostLabel).\(owner).\(startTime(of: owner) ?? 0)" + (tag.map { ".\($0)" } ?? "")
        var arguments = ["aec_method=webrtc", "source_name=\(name).source", "sink_name=\(name).sink", "use_master_format=1"]
        // PulseAudio's WebRTC canceller: its extended filter for echo paths past about 60 ms, and
        // no gain control, whose analog half turns the microphone's own volume down (to 33 %,
        // left so after unloading) and whose digital half would reshape the speech Parley hears.
        // pipewire-pulse's WebRTC canceller (SPA's aec-webrtc) has both as its defaults: extended
        // filter on, gain control off. On both, no noise suppression: what the microphone hears is
        // read by a recognizer, not heard by a person, and the suppressor takes much of a speaker's
        // first sentence for noise while it learns the room (docs/audio.md). Steady
        // noise is the recognizer's to pass over (`SteadySound`). pipewire-pulse 0.3.65 takes the
        // SPA name of the setting; PulseAudio's name for it is ignored there.
        let info = connection.answer { context, answer in context.serverInfo(answer) } ?? nil
        if info?.serverName.contains("PipeWire") ?? false {
            arguments.append("aec_args=\"webrtc.noise_suppression=\(noiseSuppression)\"")
        } else {
            arguments.append("aec_args=\"extended_filter=1 analog_gain_control=0 digital_gain_control=0 noise_suppression=\(noiseSuppression ? 1 : 0)\"")
        }
        if let source { arguments.append("source_master=\(source)") }
        if let sink { arguments.append("sink_master=\(sink)") }
        let index = connection.answer { context, answer in
            context.loadModule("module-echo-cancel", arguments: arguments.joined(separator: " "), answer)
        }
        guard let loaded = index ?? nil else {
            throw EchoCancellerUnavailable(reason: "the server refused module-echo-cancel (\(connection.context.lastError))")
        }
        return EchoCanceller(module: loaded, source: "\(name).source", sink: "\(name).sink", owner: owner)
    }

    /// `load` on a thread of its own, so its blocking mainloop never holds a thread of Swift's
    /// cooperative pool.
    public static func loading(server: String?, source: String?, sink: String?, cookie: PulseCookie? = nil,
                               tag: String? = nil) async throws -> EchoCanceller {
        try await offPool { try load(server: server, source: source, sink: sink, cookie: cookie, tag: tag) }
    }

    /// `unload` on a thread of its own.
    @discardableResult
    public func unloading(server: String?, cookie: PulseCookie? = nil) async -> Bool {
        (try? await Self.offPool { unload(server: server, cookie: cookie) }) ?? false
    }

    private static func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    /// Unloads this canceller; false when the server no longer had it or could not be reached.
    /// The module at its index must still be this canceller: pipewire-pulse gives a new module
    /// the index of one unloaded before, and a second unload (or one after the server lost it)
    /// would otherwise remove whatever module has that index now.
    @discardableResult
    public func unload(server: String?, cookie: PulseCookie? = nil, timeout: Double = 3) -> Bool {
        guard let connection = try? OneShotConnection(server: server, name: "Parley echo canceller", timeout: timeout,
                                                      cookie: cookie) else {
            return false
        }
        let modules = connection.list { context, answer in context.modules(answer) } ?? []
        guard let loaded = modules.first(where: { $0.index == module && isThisCanceller($0) }) else { return false }
        return Self.unload(loaded, on: connection)
    }

    /// Suspends the canceller's source and sink, then unloads its module; whether it went.
    ///
    /// pipewire-pulse 0.3.65 (Debian bookworm's) destroys the canceller's four streams one
    /// after another on its main thread while its data thread may still be processing them,
    /// and can then crash (a segfault in `pw_stream_dequeue_buffer`), taking every client of
    /// the server with it. With the two devices suspended first, their streams are no longer
    /// processed when they go (BENCHMARKS.md § Echo canceller unloads on pipewire-pulse).
    /// PulseAudio corks the canceller's streams on suspension and unloads it as before.
    static func unload(_ module: LoadedModule, on connection: OneShotConnection) -> Bool {
        let names = module.arguments.split(separator: " ")
        func device(_ key: String) -> String? {
            names.first { $0.hasPrefix("\(key)=") }.map { String($0.dropFirst(key.count + 1)) }
        }
        if let source = device("source_name") {
            _ = connection.answer { context, answer in context.suspendSource(named: source, answer) }
        }
        if let sink = device("sink_name") {
            _ = connection.answer { context, answer in context.suspendSink(named: sink, answer) }
        }
        return connection.answer { context, answer in context.unloadModule(module.index, answer) } ?? false
    }

    /// Whether `loaded` is this canceller's module, by its source's name.
    private func isThisCanceller(_ loaded: LoadedModule) -> Bool {
        loaded.name == "module-echo-cancel" && loaded.arguments.split(separator: " ").contains { $0 == "source_name=\(source)" }
    }

    /// The cancellers Parley processes loaded on `server` that are still loaded: module index and owner.
    public static func loaded(server: String?, timeout: Double = 3) throws -> [(module: UInt32, owner: String)] {
        let connection = try OneShotConnection(server: server, name: "Parley echo canceller", timeout: timeout)
        return (connection.list { context, answer in context.modules(answer) } ?? []).compactMap { module in
            owner(of: module).map { (module.index, "\($0.host).\($0.pid)") }
        }
    }

    /// Unloads the cancellers of this host whose Parley process has gone; how many went.
    static func removeLeftovers(_ connection: OneShotConnection) -> Int {
        let modules = connection.list { context, answer in context.modules(answer) } ?? []
        let stale = modules.filter { module in
            guard let owner = owner(of: module), owner.host == hostLabel else { return false }
            return startTime(of: owner.pid) != owner.start
        }
        return stale.filter { unload($0, on: connection) }.count
    }

    /// The host, process and start time a canceller's source name names, nil for a module that is not one of Parley's.
    private static func owner(of module: LoadedModule) -> (host: String, pid: Int32, start: UInt64)? {
        guard module.name == "module-echo-cancel" else { return nil }
        for argument in module.arguments.split(separator: " ") where argument.hasPrefix("source_name=\(prefix).") {
            let parts = argument.dropFirst("source_name=\(prefix).".count).split(separator: ".")
            guard parts.count >= 4, let pid = Int32(parts[1]), let start = UInt64(parts[2]) else { return nil }
            return (String(parts[0]), pid, start)
        }
        return nil
    }

    /// When process `pid` of this host started, in clock ticks since boot (`/proc/PID/stat`,
    /// field 22); nil when there is no such process.
    static func startTime(of pid: Int32) -> UInt64? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // After the command name in parentheses: field 3 (state) onwards; the start time is field 22.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 19 ? UInt64(fields[19]) : nil
    }

    /// This host's name as a device-name part: letters, digits and `-` only.
    public static let hostLabel: String = {
        let name = ProcessInfo.processInfo.hostName.prefix { $0 != "." }
        let label = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "-" })
        return label.isEmpty ? "host" : label
    }()
}

/// The server offers no echo canceller, or refused to load one.
public struct EchoCancellerUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why, in words that sit inside a sentence.
    public var reason: String

    public var description: String { "no echo canceller: \(reason)" }
}
