import Foundation
import WhisperRecognition

/// Installs one model folder, `MODELS/NAME`, and touches nothing else.
///
/// The copy is built in a hidden folder beside it (`MODELS/.NAME.adding-PID`), checked,
/// then renamed into place. A model it replaces is first renamed aside
/// (`MODELS/.NAME.replaced-PID`) and removed only once the new one is in place; if the new
/// one cannot be put in place, the old one is renamed back. Every path it removes is one of
/// those hidden folders, directly inside the models folder.
struct ModelFolderInstaller {
    /// The models folder.
    var models: String
    /// The model's folder name: one path component (see `nameProblem`).
    var name: String
    /// This process's id, which names its hidden folders.
    var process = getpid()

    /// Where the model is installed.
    var target: String { "\(models)/\(name)" }
    /// Where the copy is built.
    var staged: String { "\(models)/.\(name).adding-\(process)" }
    /// Where a replaced model waits until the new one is in place.
    var displaced: String { "\(models)/.\(name).replaced-\(process)" }

    /// Why `name` cannot name a model folder, or nil: it must be one folder name, not empty,
    /// `.` or `..`, without `/` or control characters, not hidden, and not like the leftover of
    /// an add (`NAME.adding-PID`).
    static func nameProblem(_ name: String) -> String? {
        let acceptable = !name.isEmpty && !name.hasPrefix(".") && !name.contains("/")
            && !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
            && name.utf8.count <= 200 && !WhisperModelFolder.isAddLeftover(name)
        return acceptable ? nil : "the model name \"\(name)\" cannot be used: a model's name is one folder name, "
            + "without \"/\", not starting with \".\", not ending in \".adding-\" and a number, at most 200 bytes long"
    }

    /// Creates the models folder when it does not exist; throws one sentence when it cannot be
    /// used (a file is there, or it cannot be created).
    static func prepareModelsFolder(_ models: String) throws {
        var status = stat()
        if stat(models, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else {
                throw ModelInstallFailure("the models folder \(models) is a file, not a folder; give --models a folder")
            }
            return
        }
        var made = models.hasPrefix("/") ? "" : "."
        for component in models.split(separator: "/") {
            made += "/\(component)"
            if stat(made, &status) == 0 {
                guard status.st_mode & S_IFMT == S_IFDIR else {
                    throw ModelInstallFailure("cannot create the models folder \(models): \(made) is a file, not a folder")
                }
                continue
            }
            guard mkdir(made, 0o755) == 0 || errno == EEXIST else {
                let reason = systemReason(errno)
                throw ModelInstallFailure("cannot create the models folder \(models): " + (made == models ? reason : "\(made): \(reason)"))
            }
        }
    }

    /// Copies `source` into the hidden staging folder, lets `prepare` check and complete the copy,
    /// then puts it in place; throws one sentence, with nothing installed, when any step fails.
    /// Without `replace`, an installed model of the same name is left as it is and refused.
    func install(from source: String, replace: Bool, prepare: (String) async throws -> Void = { _ in }) async throws {
        if exists(target), !replace {
            throw ModelInstallFailure("a model is already installed at \(target); add --replace to replace it")
        }
        if exists(target), !isFolder(target) {
            throw ModelInstallFailure("\(target) is not a model folder; nothing was replaced or installed")
        }
        removeHidden(staged)
        do {
            try ModelSourceFiles.copy(from: source, to: staged)
            try await prepare(staged)
            try putInPlace()
        } catch {
            removeHidden(staged)
            throw ModelInstallFailure(sentence(error, source: source))
        }
    }

    /// Renames the staged copy to the target, the model it replaces aside first and removed last.
    private func putInPlace() throws {
        let replacing = exists(target)
        if replacing, rename(target, displaced) != 0 {
            throw ModelInstallFailure("cannot move the installed model \(target) aside: \(systemReason(errno))")
        }
        if rename(staged, target) != 0 {
            let reason = systemReason(errno)
            if replacing { _ = rename(displaced, target) }
            throw ModelInstallFailure("cannot rename \(staged) to \(target): \(reason)")
        }
        if replacing { removeHidden(displaced) }
    }

    /// The sentence for a failed install, saying that nothing was installed.
    private func sentence(_ error: any Error, source: String) -> String {
        let what = (error as? ModelInstallFailure)?.sentence ?? "cannot copy \(source) to \(target): \(fileFailureReason(error))"
        return what.hasSuffix("; nothing was installed") ? what : "\(what); nothing was installed"
    }

    /// Removes `path` when it is one of this installer's hidden folders in the models folder.
    private func removeHidden(_ path: String) {
        guard path == staged || path == displaced else { return }
        Self.remove(path)
    }

    /// Removes `path`: a link itself (never what it points to), a file, or a folder with its contents.
    static func remove(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        if status.st_mode & S_IFMT == S_IFLNK { unlink(path) } else { try? FileManager.default.removeItem(atPath: path) }
    }

    private func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    private func isFolder(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }
}

/// An install step that failed, in one sentence.
struct ModelInstallFailure: Error, CustomStringConvertible {
    var sentence: String
    init(_ sentence: String) { self.sentence = sentence }
    var description: String { sentence }
}

/// The system's words for an `errno` ("No such file or directory").
func systemReason(_ code: Int32) -> String {
    String(cString: strerror(code))
}

/// A Foundation file error in words (the system's reason when it gives one), never its domain and code.
func fileFailureReason(_ error: any Error) -> String {
    if let failure = error as? ModelInstallFailure { return failure.sentence }
    let described = error as NSError
    if let underlying = described.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
        return systemReason(Int32(truncatingIfNeeded: underlying.code))
    }
    if described.domain == NSPOSIXErrorDomain { return systemReason(Int32(truncatingIfNeeded: described.code)) }
    switch CocoaError.Code(rawValue: described.code) {
    case .fileWriteFileExists: return "a file of that name is already there"
    case .fileNoSuchFile, .fileReadNoSuchFile: return "a file it needs is missing"
    case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
    case .fileWriteOutOfSpace: return "no space left on the device"
    case .fileWriteVolumeReadOnly: return "the file system is read-only"
    default: return "the file system refused the operation"
    }
}
