import Audio
import Foundation
import ParleyCore

/// Where each side of `parley dialog` is heard and spoken to.
///
/// Side A's devices come from `--server`, `--source` and `--sink`, or from its locale argument
/// written as a room party (`en-US,source=NAME,sink=NAME,server=ADDRESS,cookie=FILE`). Side B
/// shares them unless `--source-b`, `--sink-b`, `--server-b` or its own party fields give it
/// devices of its own: then each side has its own session, and what is left out of side B is
/// side A's server with that server's default devices.
struct SideDevicePlan {
    /// Side A's devices; in a shared plan, both sides'.
    var a: AudioSessionOptions
    /// Side B's own devices, or nil when it shares side A's.
    var b: AudioSessionOptions?
    /// The locale arguments without their device fields.
    var localeA: String
    var localeB: String
    /// The voice each side hears translations in (`voice=` of its locale argument), if given.
    var voiceA: String?
    var voiceB: String?
    /// The recognizer that hears each side (`recognizer=` of its locale argument), if given.
    var recognizerA: String?
    var recognizerB: String?

    /// Reads the plan from the command line; a contradiction is refused in one sentence.
    init(localeA argumentA: String, localeB argumentB: String, common: CommonOptions,
         sourceB: String?, sinkB: String?, serverB: String?) throws(DeviceRefusal) {
        let partyA = try Self.party(argumentA, side: "A")
        let partyB = try Self.party(argumentB, side: "B")
        localeA = partyA?.locale.description ?? argumentA
        localeB = partyB?.locale.description ?? argumentB
        (voiceA, voiceB) = (partyA?.voice, partyB?.voice)
        (recognizerA, recognizerB) = (partyA?.recognizer, partyB?.recognizer)
        var a = common.audioSessionOptions()
        if let partyA {
            a.server = try Self.once("A's server", option: "--server", common.server, field: partyA.server)
            a.source = try Self.once("A's microphone", option: "--source", common.source, field: partyA.source)
            a.sink = try Self.once("A's speaker", option: "--sink", common.sink, field: partyA.sink)
            let server = a.server
            a.cookie = try partyA.cookie.map { path throws(DeviceRefusal) in
                try DeviceChecks.cookie(path, of: "side A", server: server)
            }
        }
        self.a = a
        let source = try Self.once("B's microphone", option: "--source-b", sourceB, field: partyB?.source)
        let sink = try Self.once("B's speaker", option: "--sink-b", sinkB, field: partyB?.sink)
        let server = try Self.once("B's server", option: "--server-b", serverB, field: partyB?.server)
        if let serverB, !RoomParty.isServerAddress(serverB) {
            throw DeviceRefusal("--server-b '\(serverB)' is not a server address (tcp:HOST:PORT, unix:/PATH or a host name)")
        }
        let cookie = try partyB?.cookie.map { path throws(DeviceRefusal) in
            try DeviceChecks.cookie(path, of: "side B", server: server ?? a.server)
        }
        guard source != nil || sink != nil || server != nil || cookie != nil else {
            b = nil
            if a.cookie == nil { try DeviceChecks.environmentCookie() }
            return
        }
        var b = AudioSessionOptions(server: server ?? a.server, source: source, sink: sink)
        // Side B on side A's server authenticates as side A does, unless it says otherwise.
        b.cookie = cookie ?? (server == nil ? a.cookie : nil)
        self.b = b
        if a.cookie == nil || b.cookie == nil { try DeviceChecks.environmentCookie() }
        if let shared = DeviceChecks.sharedMicrophone([Microphone(a), Microphone(b)]) {
            throw DeviceRefusal("sides A and B would share one microphone (\(shared.microphone)): give side B its own with --source-b, or leave out the -b options to share one microphone and speaker")
        }
    }

    /// Whether each side has its own microphone and speaker.
    var isSeparate: Bool { b != nil }

    /// A locale argument with device fields, read as a room party; nil for a plain locale.
    private static func party(_ argument: String, side: String) throws(DeviceRefusal) -> RoomParty? {
        guard argument.contains(",") else { return nil }
        do {
            return try RoomParty(parsing: argument)
        } catch {
            throw DeviceRefusal("side \(side) '\(argument)': \(error.reason)")
        }
    }

    /// The one value given for a device, from its option or its party field.
    private static func once(_ what: String, option: String, _ optionValue: String?,
                             field: String?) throws(DeviceRefusal) -> String? {
        if let optionValue, let field, optionValue != field {
            throw DeviceRefusal("side \(what) is given twice, \(option) \(optionValue) and \(field) in the locale argument; give it once")
        }
        return optionValue ?? field
    }
}
