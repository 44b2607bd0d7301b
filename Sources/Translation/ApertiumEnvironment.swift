import Foundation
import Synchronization

/// What the pipeline's processes need from the system: the environment the
/// `apertium` command gives them, and the mode's pipeline text.
enum ApertiumEnvironment {
    /// The program that prints a mode's pipeline with null-flush switches.
    static let modeTool = "apertium-wblank-mode"

    /// Parley's environment with a UTF-8 character type, as the `apertium` command sets it:
    /// the stages read bytes as characters only in a UTF-8 locale.
    static func forPipeline() -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["LC_CTYPE"] = "C.UTF-8"
        environment.removeValue(forKey: "LC_ALL")
        let path = environment["PATH"] ?? ""
        environment["PATH"] = path.split(separator: ":").contains("/usr/bin") ? path : "/usr/bin:" + path
        return environment
    }

    /// The mode's pipeline in null-flush form, as `apertium-wblank-mode -z MODE` prints it:
    /// a shell pipeline of the stages with `$1` for the generators' mark option.
    static func pipelineScript(modeFile: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [modeTool, "-z", modeFile]
        process.environment = forPipeline()
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw TranslationError.toolMissing(modeTool)
        }
        let errorData = LockedData()
        let drain = Thread { errorData.set(errors.fileHandleForReading.readDataToEndOfFile()) }
        drain.start()
        let script = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let problem = String(decoding: errorData.waitForValue(), as: UTF8.self)
        guard process.terminationStatus == 0, !script.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            if process.terminationStatus == 127 { throw TranslationError.toolMissing(modeTool) }
            throw TranslationError.unreadableMode(modeFile, problem.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return script
    }
}

/// Data handed over from a draining thread.
private final class LockedData: Sendable {
    private let value = Mutex<Data?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    func set(_ data: Data) {
        value.withLock { $0 = data }
        ready.signal()
    }

    func waitForValue() -> Data {
        ready.wait()
        return value.withLock { $0! }
    }
}
