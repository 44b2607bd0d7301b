import ChildProcesses
import Foundation

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
        let run: ToolRun
        do {
            run = try ToolRun(["/usr/bin/env", modeTool, "-z", modeFile], environment: forPipeline(), name: modeTool, timeout: 60)
        } catch let failure as ChildProcessFailure {
            guard case .couldNotStart = failure.kind else { throw TranslationError.unreadableMode(modeFile, failure.description) }
            throw TranslationError.toolMissing(modeTool)
        }
        let script = run.outputText
        guard run.status == 0, !script.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            if run.status == 127 { throw TranslationError.toolMissing(modeTool) }
            throw TranslationError.unreadableMode(modeFile, run.errors.text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return script
    }
}
