import CPocketSphinx
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// PocketSphinx's log, which is global to the process: silenced, except while
/// a model loads, when it is captured so a failure can name the file at fault.
///
/// Never written to the terminal: `parley listen` prints transcripts on
/// stdout and one-sentence errors on stderr, nothing else.
///
/// It is also the voice activity detector's log (`SphinxSpeechDetector` silences it).
package enum SphinxLog {
    /// Serializes model loads, since the captured log is shared by all decoders.
    private static let loadLock = NSLock()

    /// Turns the log off (`err_set_logfp(NULL)`).
    package static func silence() {
        err_set_logfp(nil)
    }

    /// Runs `body` with the log written to a temporary file, and returns its
    /// result together with the error lines logged meanwhile.
    package static func capturing<T>(_ body: () -> T) -> (T, [String]) {
        loadLock.lock()
        defer { loadLock.unlock() }
        guard let file = tmpfile() else { return (body(), []) }
        defer { fclose(file) }
        err_set_logfp(file)
        let result = body()
        err_set_logfp(nil)
        return (result, errorLines(in: file))
    }

    private static func errorLines(in file: UnsafeMutablePointer<FILE>) -> [String] {
        fflush(file)
        let descriptor = fileno(file)
        lseek(descriptor, 0, SEEK_SET)
        let data = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).readDataToEndOfFile()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
            .filter { $0.hasPrefix("ERROR") || $0.hasPrefix("FATAL") }
    }

    /// A log line as a reason: `ERROR: "fsg_search.c", line 12: message` → `message`. The JSGF
    /// parser's own line numbers are garbage in this version (`syntax error at line 151613296`),
    /// so they are dropped.
    package static func message(_ line: String) -> String {
        var text = line
        if let range = line.range(of: #"line \d+: "#, options: .regularExpression) {
            text = String(line[range.upperBound...])
        }
        return text.replacingOccurrences(of: #" at line \d+ current token"#, with: " at token",
                                         options: .regularExpression)
            .trimmingCharacters(in: .whitespaces)
    }
}
