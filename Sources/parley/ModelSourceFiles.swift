import Foundation

/// The files of a model folder a person gives `parley models add`: real files and folders only.
///
/// A link is followed only to a regular file inside the model folder, and its contents are
/// copied; a link that leads out of the folder (or to a folder), and anything that is neither a
/// file nor a folder (a pipe, a device), is refused, so an installed model never points at, or
/// holds a copy of, a file from elsewhere.
enum ModelSourceFiles {
    /// The first reason the folder cannot be copied, in one sentence, or nil.
    static func problem(in source: String) -> String? {
        do {
            try walk(source, root: realRoot(source)) { _, _ in }
            return nil
        } catch {
            return (error as? ModelInstallFailure)?.sentence ?? fileFailureReason(error)
        }
    }

    /// Copies `source` to `destination` (which must not exist): folders are made, files and
    /// links to files inside `source` are copied as files; throws on anything else.
    static func copy(from source: String, to destination: String) throws {
        guard mkdir(destination, 0o755) == 0 else {
            throw ModelInstallFailure("cannot create \(destination): \(systemReason(errno))")
        }
        try walk(source, root: realRoot(source)) { relative, kind in
            let copy = "\(destination)/\(relative)"
            switch kind {
            case .folder:
                guard mkdir(copy, 0o755) == 0 else { throw ModelInstallFailure("cannot create \(copy): \(systemReason(errno))") }
            case .file(let real):
                do {
                    try FileManager.default.copyItem(atPath: real, toPath: copy)
                } catch {
                    throw ModelInstallFailure("cannot copy \(source)/\(relative) to \(copy): \(fileFailureReason(error))")
                }
            }
        }
    }

    /// What one entry of the folder is.
    enum Entry {
        /// A folder, made in the copy before what it holds.
        case folder
        /// A file to copy; `real` is the file itself (a link's target, inside the folder).
        case file(real: String)
    }

    /// The path with every link resolved, or nil when it cannot be resolved.
    static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    private static func realRoot(_ source: String) throws -> String {
        guard let real = resolved(source) else {
            throw ModelInstallFailure("cannot read \(source): \(systemReason(errno))")
        }
        return real
    }

    /// Calls `visit` with each entry under `folder` (its path relative to the walk's start), parents first.
    private static func walk(_ folder: String, root: String, prefix: String = "",
                             visit: (String, Entry) throws -> Void) throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        } catch {
            throw ModelInstallFailure("cannot read the folder \(folder): \(fileFailureReason(error))")
        }
        for name in names {
            let path = "\(folder)/\(name)", relative = prefix + name
            var status = stat()
            guard lstat(path, &status) == 0 else { throw ModelInstallFailure("cannot read \(path): \(systemReason(errno))") }
            switch status.st_mode & S_IFMT {
            case S_IFDIR:
                try visit(relative, .folder)
                try walk(path, root: root, prefix: relative + "/", visit: visit)
            case S_IFREG:
                try visit(relative, .file(real: path))
            case S_IFLNK:
                try visit(relative, .file(real: try linkedFile(path, root: root)))
            default:
                throw ModelInstallFailure("\(path) is neither a file nor a folder; a model folder holds only files and folders")
            }
        }
    }

    /// The regular file inside `root` that the link at `path` leads to; throws when it leads elsewhere.
    private static func linkedFile(_ path: String, root: String) throws -> String {
        guard let resolved = realpath(path, nil) else {
            throw ModelInstallFailure("\(path) is a link to nothing that can be read (\(systemReason(errno)))")
        }
        let real = String(cString: resolved)
        free(resolved)
        guard real.hasPrefix(root + "/") else {
            throw ModelInstallFailure("\(path) is a link to \(real), outside the model folder; copy the real file into the folder")
        }
        var status = stat()
        guard stat(real, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw ModelInstallFailure("\(path) is a link to \(real), which is not a file; copy the real files into the folder")
        }
        return real
    }
}
