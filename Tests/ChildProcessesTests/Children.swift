import ChildProcesses
import Foundation
import Testing

/// Fixtures and `/proc` readings shared by the child-process tests.
enum Children {
    /// `Tests/Fixtures/fake-worker.py`.
    static let fakeWorker: String = {
        var url = URL(fileURLWithPath: #filePath)
        url.deleteLastPathComponent()
        url.deleteLastPathComponent()
        return url.appendingPathComponent("Fixtures/fake-worker.py").path
    }()

    /// The fake worker in `mode` as a framed child whose answers name their id in JSON.
    static func fake(_ mode: String) throws -> FramedChild {
        try FramedChild(["python3", fakeWorker, "--mode", mode], name: "the fake worker",
                        maximumFrameBytes: 1 << 20, answerID: { json($0)?["id"] as? Int })
    }

    /// A request as the Whisper worker reads it: header `{"id": id, …}` and a payload of `payload` bytes.
    static func request(id: Int, payload: Int = 0, mels: Int = 0, frames: Int = 0) throws -> Data {
        let header = try JSONSerialization.data(withJSONObject: [
            "op": "transcribe", "id": id, "language": "en", "mels": mels, "frames": frames,
        ])
        return LengthFrames.frame(header) + LengthFrames.frame(Data(repeating: 0, count: payload))
    }

    /// A JSON object's fields.
    static func json(_ data: Data) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// The state letter of process `pid` in `/proc/PID/stat` (R, S, Z…), nil when there is no such process.
    static func state(_ pid: Int32) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ").first.map(String.init)
    }

    /// Whether `pid` runs (a zombie does not).
    static func isRunning(_ pid: Int32) -> Bool {
        guard let state = state(pid) else { return false }
        return state != "Z" && state != "X"
    }

    /// The pids in process group `group`, zombies included.
    static func members(ofGroup group: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 3 && Int32(fields[2]) == group
        }
    }

    /// Waits up to `seconds` for `condition`; whether it came true.
    static func eventually(within seconds: Double = 10, _ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<Int(seconds * 20) {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return condition()
    }
}
