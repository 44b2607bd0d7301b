import Foundation

extension WhisperCall {
    /// A request with its id, as the header of a request frame: `id`, `op` and the case's own
    /// fields in one JSON object.
    struct Frame: Codable, Sendable, Equatable {
        var id: Int
        var call: WhisperCall

        private enum Keys: String, CodingKey { case id, op }

        func encode(to encoder: any Swift.Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(id, forKey: .id)
            try container.encode(call.operation, forKey: .op)
            switch call {
            case let .transcribe(request):
                try request.encode(to: encoder)
                try request.features.encode(to: encoder)
            case let .pair(request):
                try request.encode(to: encoder)
                try request.features.encode(to: encoder)
            case let .alternative(request): try request.encode(to: encoder)
            case .ping: break
            }
        }

        init(id: Int, call: WhisperCall) {
            self.id = id
            self.call = call
        }

        init(from decoder: any Swift.Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            id = try container.decode(Int.self, forKey: .id)
            switch try container.decode(String.self, forKey: .op) {
            case "transcribe":
                var request = try Transcribe(from: decoder)
                request.features = try WhisperFeatureShape(from: decoder)
                call = .transcribe(request)
            case "pair":
                var request = try Pair(from: decoder)
                request.features = try WhisperFeatureShape(from: decoder)
                call = .pair(request)
            case "alternative": call = .alternative(try Alternative(from: decoder))
            case "ping": call = .ping
            case let other:
                throw DecodingError.dataCorruptedError(forKey: .op, in: container, debugDescription: "unknown request '\(other)'")
            }
        }
    }

    /// The operation's name on the wire.
    var operation: String {
        switch self {
        case .transcribe: "transcribe"
        case .pair: "pair"
        case .alternative: "alternative"
        case .ping: "ping"
        }
    }
}
