import ChildProcesses
import Foundation

/// A 16 KiB tmpfs holding an empty transcript file and a filler that takes every
/// free page: writes to the transcript fail for want of space until the filler is
/// removed. Mounting needs root; `make()` returns nil where it cannot mount.
struct FullDisk {
    /// The mount point.
    let mount: String
    /// An empty regular file on the full disk.
    var transcript: String { mount + "/t.jsonl" }
    /// The file taking the free space; remove it to give the space back.
    var filler: String { mount + "/filler" }

    /// Mounts the tmpfs, creates the empty transcript with `earlier` in it, and fills the rest.
    static func make(earlier: String = "") throws -> FullDisk? {
        let mount = FileManager.default.temporaryDirectory.appendingPathComponent("full-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        guard run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", mount]) else {
            try? FileManager.default.removeItem(atPath: mount)
            return nil
        }
        let disk = FullDisk(mount: mount)
        try earlier.write(toFile: disk.transcript, atomically: false, encoding: .utf8)
        let fill = open(disk.filler, O_WRONLY | O_CREAT, 0o600)
        let page = [UInt8](repeating: 0x79, count: 4096)
        while write(fill, page, page.count) > 0 {}
        close(fill)
        return disk
    }

    /// Unmounts the tmpfs and removes its mount point.
    func release() {
        _ = Self.run(["umount", mount])
        try? FileManager.default.removeItem(atPath: mount)
    }

    /// Runs `command` through env (for at most 60 s), its output unread; whether it exited 0.
    static func run(_ command: [String]) -> Bool {
        (try? ToolRun(["/usr/bin/env"] + command, name: command[0], timeout: 60))?.status == 0
    }
}
