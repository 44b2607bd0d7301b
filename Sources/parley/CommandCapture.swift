import Synchronization

/// Where a command's output goes when it runs inside a conversation instead of as a
/// process of its own: `StandardOutput` and `printError` write into the capture bound
/// to the current task, so a `:dict` or `:glossary` line run in-process never cuts
/// through the prompt, and the REPL shows what it printed as one block.
final class CommandCapture: Sendable {
    /// The capture of the running task, if any: then nothing reaches descriptors 1 and 2.
    @TaskLocal static var current: CommandCapture?

    private let bytes = Mutex<[UInt8]>([])

    /// Appends `data`, standard output and error interleaved as a terminal shows them.
    func append(_ data: some Sequence<UInt8>) {
        bytes.withLock { $0.append(contentsOf: data) }
    }

    /// Everything captured so far, as text.
    var text: String {
        bytes.withLock { String(decoding: $0, as: UTF8.self) }
    }
}
