import ParleyCore
import Testing

/// Server addresses written as libpulse reads them compare as the server they reach.
@Suite struct ServerAddressTests {
    static let environment = ["XDG_RUNTIME_DIR": "/run/user/1000"]

    @Test("spellings of one server are one address",
          arguments: [["unix:/run/pulse/native", "/run/pulse/native", "unix:/run/pulse//native", "unix:/run/pulse/./native"],
                      ["tcp:127.0.0.1:4713", "tcp:localhost", "tcp4:localhost:4713", "localhost", "127.0.0.1:4713", "tcp6:[::1]:4713"],
                      ["tcp:Studio:4800", "studio:4800", "tcp4:studio:4800", "{0123abcd}tcp:studio:4800"],
                      ["unix:/run/user/1000/pulse/native", ""]])
    func oneServer(spellings: [String]) {
        let addresses = Set(spellings.map { ServerAddress($0.isEmpty ? nil : $0, environment: Self.environment) })
        #expect(addresses.count == 1, "\(addresses)")
    }

    @Test("different servers stay different",
          arguments: [("tcp:studio:4713", "tcp:studio:4714"), ("tcp:studio", "tcp:other"), ("unix:/run/a", "unix:/run/b"),
                      ("unix:/run/pulse/native", "tcp:127.0.0.1")])
    func differentServers(first: String, second: String) {
        #expect(ServerAddress(first, environment: [:]) != ServerAddress(second, environment: [:]))
    }

    @Test("left out, the server is $PULSE_SERVER, else the session's socket, else the default")
    func leftOut() {
        #expect(ServerAddress(nil, environment: ["PULSE_SERVER": "/tmp/x/native", "XDG_RUNTIME_DIR": "/run/user/1"]).canonical
                == "unix:/tmp/x/native")
        #expect(ServerAddress(nil, environment: ["XDG_RUNTIME_DIR": "/run/user/1"]).canonical == "unix:/run/user/1/pulse/native")
        #expect(ServerAddress(nil, environment: [:]).canonical == "default")
    }
}
