public import ChildProcesses
import Foundation

/// Evidence of a save that a kill interrupted mid-write.
///
/// An atomic save writes `.NAME.saving` beside the file `NAME`, then renames it over the
/// file; a process killed by SIGKILL between the two leaves it behind (nothing runs to
/// remove it). A temporary file found right after such a kill therefore means the kill
/// landed during the write, which is the moment a kill test exists to reach.
public enum InterruptedSaves {
    /// The `.saving` files anywhere under `directory`.
    public static func temporaryFiles(under directory: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: directory)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".saving") { found.append((directory as NSString).appendingPathComponent(path)) }
        }
        return found
    }

    /// Removes what `temporaryFiles` finds, so the next kill's evidence is its own;
    /// returns how many there were.
    @discardableResult
    public static func clear(under directory: String) -> Int {
        let files = temporaryFiles(under: directory)
        files.forEach { try? FileManager.default.removeItem(atPath: $0) }
        return files.count
    }

    /// Polls (every 0.2 ms) until `process` has a `.saving` file under `directory`, it exits,
    /// or `timeout` seconds pass; true when the file appeared while it ran. For aiming a kill
    /// at the write.
    public static func waitForWrite(of process: SpawnedProcess, under directory: String, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline {
            if !temporaryFiles(under: directory).isEmpty { return true }
            usleep(200)
        }
        return false
    }

    /// Polls (every 0.2 ms) until `process` has written a `.saving` file under `directory` and
    /// that file has gone again (renamed into place), or it exits, or `timeout` seconds pass.
    /// For aiming a kill just after the rename, where the new file must be the one that stays.
    public static func waitForRename(of process: SpawnedProcess, under directory: String, timeout: Double) {
        let deadline = Date().addingTimeInterval(timeout)
        guard waitForWrite(of: process, under: directory, timeout: timeout) else { return }
        while process.isRunning && Date() < deadline {
            if temporaryFiles(under: directory).isEmpty { return }
            usleep(200)
        }
    }
}
