/// Why `AtomicFile` could not write or lock a file.
public enum FileWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file could not be read, written or locked; `reason` says which and why.
    case failure(path: String, reason: String)
    /// Something other than a regular file stands where a file would be written; it is left alone.
    case notRegularFile(path: String, kind: String)

    public var description: String {
        switch self {
        case let .failure(path, reason):
            return "\(path): \(reason)"
        case let .notRegularFile(path, kind):
            return "\(path) is \(kind), not a regular file; it was left as it is: give the path of a file"
        }
    }
}
