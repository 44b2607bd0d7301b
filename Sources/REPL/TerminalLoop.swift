import Foundation

/// What reads standard input on the terminal thread: readline, or a plain line splitter.
protocol TerminalInput: AnyObject {
    /// Sets up, on the terminal thread.
    func begin()
    /// Standard input is readable; returns false once it has ended.
    func readAvailable() -> Bool
    /// Ctrl-C arrived.
    func interrupted()
    /// The terminal changed size.
    func resized()
    /// Tears down, on the terminal thread, before the loop ends.
    func end()
}

/// One thread, one `poll()` over standard input, the mailbox and the signal
/// pipe. Everything that touches the terminal (readline included) runs here.
///
/// SIGTERM and SIGHUP are acted on at once, not in their turn: `onTerminate` runs on the
/// terminal thread the moment one arrives, beside whatever input is being handled (a line
/// waiting for a long translation to be spoken), and `.terminate` follows on `inputs`.
final class TerminalLoop: @unchecked Sendable {  // its state is touched only on the terminal thread
    private let input: any TerminalInput
    private let mailbox: Mailbox
    private let signals: SignalPipe
    private let inputs: AsyncStream<ReplInput>.Continuation
    private let onTerminate: @Sendable () -> Void
    private var running = true
    private var inputOpen = true
    private var finished: CheckedContinuation<Void, Never>?
    private let finishedLock = NSLock()
    private var hasFinished = false

    init(input: any TerminalInput, mailbox: Mailbox, inputs: AsyncStream<ReplInput>.Continuation,
         onTerminate: @escaping @Sendable () -> Void = {}) throws {
        self.input = input
        self.mailbox = mailbox
        self.inputs = inputs
        self.onTerminate = onTerminate
        signals = try SignalPipe()
    }

    /// Starts the terminal thread.
    func start() {
        signals.install()
        let thread = Thread { [self] in run() }
        thread.name = "parley-terminal"
        thread.start()
    }

    /// Ends the loop after the work already posted, and waits for it.
    func stop() async {
        mailbox.post { [self] in running = false }
        await withCheckedContinuation { continuation in
            let done = finishedLock.withLock { () -> Bool in
                if !hasFinished { finished = continuation }
                return hasFinished
            }
            if done { continuation.resume() }
        }
    }

    private func run() {
        input.begin()
        while running {
            var descriptors = [pollfd(fd: inputOpen ? STDIN_FILENO : -1, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: mailbox.readDescriptor, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: signals.readDescriptor, events: Int16(POLLIN), revents: 0)]
            guard poll(&descriptors, 3, -1) >= 0 || errno == EINTR else { break }
            if descriptors[2].revents != 0 { handleSignals() }
            if descriptors[1].revents != 0 { mailbox.runPending() }
            if running, inputOpen, descriptors[0].revents != 0 { inputOpen = input.readAvailable() }
        }
        input.end()
        signals.uninstall()
        let waiter = finishedLock.withLock { () -> CheckedContinuation<Void, Never>? in
            hasFinished = true
            return finished
        }
        waiter?.resume()
    }

    private func handleSignals() {
        for number in signals.received() {
            switch number {
            case SIGINT:
                input.interrupted()
                inputs.yield(.interrupt)
            case SIGWINCH:
                input.resized()
            default:
                onTerminate()
                inputs.yield(.terminate)
            }
        }
    }
}

/// Standard input that is not a terminal: split into lines, no echo, no editing.
final class PlainInput: TerminalInput {
    private let inputs: AsyncStream<ReplInput>.Continuation
    private var pending: [UInt8] = []

    init(inputs: AsyncStream<ReplInput>.Continuation) {
        self.inputs = inputs
    }

    func begin() {}
    func interrupted() {}
    func resized() {}
    func end() {}

    func readAvailable() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(STDIN_FILENO, &buffer, buffer.count)
        if count < 0 { return errno == EINTR || errno == EAGAIN }
        guard count > 0 else {
            if !pending.isEmpty { yieldLine(pending[...]) }
            inputs.yield(.endOfInput)
            return false
        }
        pending += buffer[0..<count]
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            yieldLine(pending[..<newline])
            pending.removeSubrange(...newline)
        }
        return true
    }

    private func yieldLine(_ bytes: ArraySlice<UInt8>) {
        guard var line = String(validating: bytes, as: UTF8.self) else {
            inputs.yield(.notText)
            return
        }
        if line.hasSuffix("\r") { line.removeLast() }
        inputs.yield(.line(line))
    }
}
