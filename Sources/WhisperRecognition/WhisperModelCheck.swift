import Foundation

extension WhisperModelFolder {
    /// What a look at the model's files found: the languages it knows, or why it cannot be used.
    public enum Inspection: Sendable, Equatable {
        /// The files look usable; the languages the model knows (`en`, `es`, …).
        case usable(languages: [String])
        /// The model cannot be used; one sentence naming the file at fault.
        case unusable(String)
    }

    /// Checks the model's files without loading it: `model.bin` is a regular file whose header
    /// names a CTranslate2 Whisper model, `config.json` is a JSON object whose `lang_ids` (if
    /// any) are integers, a tokenizer file is present, and each language id names a language
    /// token (`<|en|>`) of `vocabulary.txt`. Reads `config.json`, the first bytes of
    /// `model.bin` and `vocabulary.txt`; never traps on what the files hold. An English-only
    /// model lists no language ids and knows `en`; a model with ids and only `tokenizer.json`
    /// knows languages the worker reads (none are listed here).
    public func inspect() -> Inspection {
        if let problem = Self.weightsProblem(weights) { return .unusable(problem) }
        let ids: [Int]
        switch Self.languageIDs(configuration: "\(path)/config.json") {
        case .failure(let problem): return .unusable(problem.sentence)
        case .success(let found): ids = found
        }
        let files = FileManager.default
        let vocabularyFile = "\(path)/vocabulary.txt"
        guard files.fileExists(atPath: vocabularyFile) || files.fileExists(atPath: "\(path)/tokenizer.json") else {
            return .unusable("\(path) has neither tokenizer.json nor vocabulary.txt")
        }
        if ids.isEmpty { return .usable(languages: ["en"]) }
        guard files.fileExists(atPath: vocabularyFile) else { return .usable(languages: []) }
        guard let data = files.contents(atPath: vocabularyFile) else {
            return .unusable("\(vocabularyFile) cannot be read")
        }
        return Self.languages(ids: ids, configuration: "\(path)/config.json", vocabulary: data, file: vocabularyFile)
    }

    /// The languages the model knows, read from its files without loading it (see `inspect`);
    /// none when the model cannot be used.
    public func languages() -> [String] {
        if case .usable(let languages) = inspect() { return languages }
        return []
    }

    /// The sentence saying why `model.bin` is no Whisper model, or nil when its header names one.
    static func weightsProblem(_ weights: String) -> String? {
        var status = stat()
        guard stat(weights, &status) == 0 else { return "\(weights) cannot be read: \(String(cString: strerror(errno)))" }
        guard status.st_mode & S_IFMT == S_IFREG else { return "\(weights) is not a regular file" }
        guard status.st_size > 0 else { return "\(weights) is empty" }
        guard let handle = FileHandle(forReadingAtPath: weights) else { return "\(weights) cannot be read" }
        defer { try? handle.close() }
        // u32 binary version, then the spec's name as a u16 length (counting a final NUL) and its bytes.
        let name = Array("WhisperSpec".utf8) + [0]
        let header = (try? handle.read(upToCount: 6 + name.count)).map(Array.init) ?? []
        guard header.count == 6 + name.count, header[4] == UInt8(name.count), header[5] == 0,
              Array(header[6...]) == name else {
            return "\(weights) is not a CTranslate2 Whisper model file (its header does not name WhisperSpec)"
        }
        return nil
    }

    /// Why a `config.json` cannot be used.
    struct ConfigurationProblem: Error {
        var sentence: String
    }

    /// The `lang_ids` of a `config.json` (empty when it has none), or why the file cannot be used.
    static func languageIDs(configuration file: String) -> Result<[Int], ConfigurationProblem> {
        guard let data = FileManager.default.contents(atPath: file) else {
            return .failure(ConfigurationProblem(sentence: "\(file) cannot be read"))
        }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            return .failure(ConfigurationProblem(sentence: "\(file) is not a JSON object"))
        }
        guard object["lang_ids"] != nil else { return .success([]) }
        struct Configuration: Decodable { var lang_ids: [Int]? }
        guard let configuration = try? JSONDecoder().decode(Configuration.self, from: data) else {
            return .failure(ConfigurationProblem(sentence: "the lang_ids of \(file) are not a list of token numbers"))
        }
        let ids = configuration.lang_ids ?? []
        return .success(ids)
    }

    /// The language of each id (`<|en|>` is `en`), or the first id that names no language token.
    static func languages(ids: [Int], configuration: String, vocabulary: Data, file: String) -> Inspection {
        // Where each line starts, up to the line after the largest id (none past the file's end).
        let wanted = min(ids.max() ?? 0, vocabulary.count) + 1
        var lineStarts = [0]
        vocabulary.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            guard let base = bytes.baseAddress else { return }
            var offset = 0
            while lineStarts.count <= wanted, offset < bytes.count,
                  let newline = memchr(base + offset, 0x0A, bytes.count - offset) {
                offset = base.distance(to: UnsafeRawPointer(newline)) + 1
                lineStarts.append(offset)
            }
        }
        if lineStarts.last == vocabulary.count { lineStarts.removeLast() }
        var languages: [String] = []
        for id in ids {
            guard id >= 0, id < lineStarts.count else {
                return .unusable("\(configuration) lists language token \(id), which \(file) does not have")
            }
            let start = lineStarts[id]
            let end = id + 1 < lineStarts.count ? lineStarts[id + 1] - 1 : vocabulary.count
            var token = String(decoding: vocabulary[vocabulary.startIndex + start ..< vocabulary.startIndex + max(start, end)], as: UTF8.self)
            if token.hasSuffix("\n") { token.removeLast() }
            guard token.count > 4, token.hasPrefix("<|"), token.hasSuffix("|>") else {
                return .unusable("\(configuration) lists language token \(id), which is \"\(token.prefix(40))\" in \(file), not a language")
            }
            languages.append(String(token.dropFirst(2).dropLast(2)))
        }
        return .usable(languages: languages)
    }
}
