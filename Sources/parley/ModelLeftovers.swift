import Foundation

/// What an interrupted `parley models add` left in the models folder, and putting it right.
///
/// A `models add` that was killed leaves its hidden staging folder (`.NAME.adding-PID`), or
/// `NAME.adding-PID` from versions that did not hide it; one killed while swapping a model in
/// may leave the model it was replacing at `.NAME.replaced-PID`. Once no process with that id
/// is running, a staging folder is removed, and a replaced model is renamed back to `NAME` when
/// nothing took its place (removed when the new model did).
enum ModelLeftovers {
    /// One leftover: its entry name, the model name, whether it is a replaced model, the process id.
    struct Leftover: Equatable {
        var entry: String
        var name: String
        var replaced: Bool
        var process: Int32
    }

    /// Puts right what interrupted adds left in `models`; quietly leaves what it cannot change.
    static func clean(_ models: String) {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: models)) ?? []
        for leftover in entries.compactMap(parse) where !isRunning(leftover.process) {
            let path = "\(models)/\(leftover.entry)"
            if leftover.replaced {
                var status = stat()
                if lstat("\(models)/\(leftover.name)", &status) != 0, rename(path, "\(models)/\(leftover.name)") == 0 { continue }
            }
            ModelFolderInstaller.remove(path)
        }
    }

    /// The leftover an entry name describes, or nil when it is no leftover.
    static func parse(_ entry: String) -> Leftover? {
        let hidden = entry.hasPrefix(".")
        let body = hidden ? String(entry.dropFirst()) : entry
        for (marker, replaced) in [(".adding-", false), (".replaced-", true)] where hidden || !replaced {
            guard let range = body.range(of: marker, options: .backwards) else { continue }
            let digits = body[range.upperBound...]
            let name = String(body[..<range.lowerBound])
            guard !name.isEmpty, !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let process = Int32(digits), process > 0 else { continue }
            return Leftover(entry: entry, name: name, replaced: replaced, process: process)
        }
        return nil
    }

    /// Whether a process with this id is running (this one included).
    static func isRunning(_ process: Int32) -> Bool {
        process == getpid() || kill(process, 0) == 0 || errno == EPERM
    }
}
