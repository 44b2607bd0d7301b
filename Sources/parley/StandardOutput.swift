import Foundation

/// Standard output for every command. Each call is written at once and whole with
/// `write(2)` on descriptor 1: nothing waits in a buffer that could be lost at exit.
/// A write that fails (a full disk, a closed descriptor, a reader gone) throws
/// `StandardOutputError`, which `Parley.main` reports in one sentence with exit status 1.
///
/// `prepare()`, first thing in `main`, ignores SIGPIPE for the whole process, so a pipe
/// whose reader has gone is an EPIPE error reported like any other instead of a silent
/// death (the engines' pipes need SIGPIPE ignored too), and puts /dev/null in the place
/// of a standard descriptor the process was started without, so no file Parley opens
/// later takes descriptor 1 and receives the output meant for stdout.
enum StandardOutput {
    /// Whether descriptor 1 was closed when Parley started.
    private static let closedAtStart: Bool = {
        var closed = false
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) < 0 && errno == EBADF {
            // The lowest free descriptor: the closed one.
            let placeholder = open("/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
            if descriptor == STDOUT_FILENO { closed = true }
            if placeholder >= 0, placeholder != descriptor { close(placeholder) }
        }
        return closed
    }()

    /// Ignores SIGPIPE and fills closed standard descriptors; call before anything opens a file.
    static func prepare() {
        signal(SIGPIPE, SIG_IGN)
        _ = closedAtStart
    }

    /// Writes `text` and `terminator`, like `Swift.print`, but unbuffered and throwing.
    static func print(_ text: String, terminator: String = "\n") throws {
        try write(Array((text + terminator).utf8))
    }

    /// Writes `data` whole.
    static func write(_ data: Data) throws {
        try write([UInt8](data))
    }

    private static func write(_ bytes: [UInt8]) throws {
        if let capture = CommandCapture.current { return capture.append(bytes) }
        guard !closedAtStart else { throw StandardOutputError(reason: "it was closed when Parley started") }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Foundation.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw StandardOutputError(code: written < 0 ? errno : ENOSPC) }
            offset += written
        }
    }
}

/// Standard output did not take what a command printed.
struct StandardOutputError: Error, CustomStringConvertible {
    /// Why, in words that sit inside a sentence.
    var reason: String

    init(reason: String) {
        self.reason = reason
    }

    /// The system's error `code` in words.
    init(code: Int32) {
        switch code {
        case EPIPE: reason = "nothing reads it any more (broken pipe)"
        case EBADF: reason = "it is closed"
        default:
            let text = String(cString: strerror(code))
            reason = text.prefix(1).lowercased() + text.dropFirst()
        }
    }

    var description: String { "cannot write to standard output: \(reason)" }
}
