import ParleyCore
import Testing

/// The PARTY arguments of `parley room`: `LOCALE[,source=NAME][,sink=NAME][,server=ADDRESS][,cookie=PATH][,voice=VOICE][,recognizer=NAME]`.
@Suite struct RoomPartyTests {
    @Test("a locale alone is the default server and its default devices")
    func localeAlone() throws {
        let party = try RoomParty(parsing: "fr-FR")
        #expect(party == RoomParty(locale: LocaleTag("fr-FR")!))
        #expect(party.source == nil && party.sink == nil && party.server == nil)
    }

    @Test("each key sets its device or server, in any order, and the party reads back as written")
    func keys() throws {
        let party = try RoomParty(parsing: "es-ES,sink=headset_b,cookie=/tmp/b/cookie,server=tcp:127.0.0.1:4713,source=headset_b.monitor")
        #expect(party.locale == LocaleTag("es-ES")!)
        #expect(party.source == "headset_b.monitor")
        #expect(party.sink == "headset_b")
        #expect(party.server == "tcp:127.0.0.1:4713")
        #expect(party.cookie == "/tmp/b/cookie")
        #expect(try RoomParty(parsing: party.description) == party)
    }

    @Test("a party's own voice and recognizer, a Wyoming server's or a local engine's, read back as written")
    func voiceAndRecognizer() throws {
        let party = try RoomParty(parsing: "en-US,voice=wyoming:tcp://127.0.0.1:10200#en_US-joe-medium,recognizer=wyoming:tcp://[::1]:10300")
        #expect(party.voice == "wyoming:tcp://127.0.0.1:10200#en_US-joe-medium")
        #expect(party.recognizer == "wyoming:tcp://[::1]:10300")
        #expect(try RoomParty(parsing: party.description) == party)
        #expect(try RoomParty(parsing: "fr-FR,recognizer=whisper,voice=fr+f3").recognizer == "whisper")
    }

    @Test("server addresses are taken as PulseAudio writes them",
          arguments: ["tcp:127.0.0.1:4713", "tcp:studio", "tcp4:10.0.0.2", "tcp6:[::1]:4713", "unix:/run/user/1000/pulse/native",
                      "studio.local", "studio:4713"])
    func addresses(address: String) throws {
        #expect(try RoomParty(parsing: "en-US,server=\(address)").server == address)
    }

    @Test("a bad argument is refused with one sentence that names it and says why",
          arguments: [("", "no locale"), (",sink=x", "no locale"), ("english!", "is not a locale"),
                      ("en-US,sink", "is not KEY=VALUE"), ("en-US,speaker=x", "'speaker' is not a key"),
                      ("en-US,sink=a,sink=b", "sink is given twice"), ("en-US,source=", "source is empty"), ("en-US,cookie=", "cookie is empty"),
                      ("en-US,server=tcp:host:99999", "is not a server address"), ("en-US,server=unix:relative", "is not a server address"),
                      ("en-US,server=tcp6:[::1", "is not a server address"), ("en-US,server=a:b:c", "is not a server address")])
    func refused(argument: String, expected: String) {
        #expect {
            _ = try RoomParty(parsing: argument)
        } throws: { error in
            let description = "\(error)"
            return description.contains(expected) && description.hasPrefix("party '\(argument)': ") && !description.contains("\n")
        }
    }
}
