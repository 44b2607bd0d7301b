import Foundation
import Locales
import ParleyCore
import Testing
import TestSupport

/// The shipped locale tables, and resolution of what a person types.
@Suite struct LocaleRegistryTests {
    let registry: LocaleRegistry

    init() throws {
        registry = try LocaleRegistry.load(from: [Fixtures.dataDirectory])
    }

    @Test(arguments: [
        ("en", SpeechEngineKind.recognition, "en-US"), ("en-US", .recognition, "en-US"), ("EN-us", .synthesis, "en-US"),
        ("English", .recognition, "en-US"), ("english", .synthesis, "en-US"), ("español", .synthesis, "es-ES"),
        ("Espanol", .synthesis, "es-ES"), ("es", .synthesis, "es-ES"), ("es-419", .synthesis, "es-419"),
        ("British English", .synthesis, "en-GB"), ("pt", .recognition, "pt-BR"), ("pt", .synthesis, "pt-PT"),
        ("  fr  ", .synthesis, "fr-FR"), ("gl", .synthesis, "gl-ES"),
        // Outside the catalog: kept as typed, or named in English or in the language itself.
        ("sq-AL", .synthesis, "sq-AL"), ("sq", .synthesis, "sq"), ("en-AU", .recognition, "en-AU"),
        ("hi-IN", .synthesis, "hi-IN"), ("zh-Hans-CN", .synthesis, "zh-Hans-CN"), ("Albanian", .synthesis, "sq"),
        ("shqip", .recognition, "sq"), ("hindi", .synthesis, "hi"), ("Swahili", .synthesis, "sw"), ("German", .synthesis, "de-DE"),
    ])
    func resolves(input: String, engine: SpeechEngineKind, expected: String) throws {
        #expect(try registry.resolve(input, for: engine).description == expected)
    }

    @Test func prefersAnInstalledCandidate() throws {
        let installed: (LocaleTag) -> Bool = { $0.description == "es-MX" }
        #expect(try registry.resolve("es", for: .recognition, isInstalled: installed).description == "es-MX")
        #expect(try registry.resolve("Spanish", for: .recognition, isInstalled: installed).description == "es-MX")
    }

    @Test(arguments: [("Englsh", "English"), ("spanich", "Spanish"), ("vulcan", nil)])
    func unknownInputSuggestsCloseOnes(input: String, suggestion: String?) {
        #expect {
            try registry.resolve(input)
        } throws: { error in
            guard let error = error as? UnknownLocaleError else { return false }
            let mentionsInput = error.description.contains("unknown locale '\(input)'")
            return mentionsInput && (suggestion.map { error.suggestions.contains($0) } ?? true)
        }
    }

    @Test(arguments: [
        ("en_US", LocaleTagError.underscore("en_US", suggestion: "en-US")), ("xx", .unknownLanguage("xx", code: "xx")),
        ("en-USA", .malformed("en-USA")), ("sq-QQ", .unknownRegion("sq-QQ", code: "QQ")),
        (String(repeating: "x", count: 300), .tooLong(300)),
    ])
    func badTagsSayWhatIsWrong(input: String, expected: LocaleTagError) {
        #expect(throws: expected) { try registry.resolve(input) }
        #expect(!expected.description.contains("\n"))
    }

    @Test func namesLocalesOutsideTheCatalog() {
        #expect(registry.displayName(of: LocaleTag("sq-AL")!) == "Albanian (Albania)")
        #expect(registry.displayName(of: LocaleTag("es-ES")!) == "Spanish")
        #expect(registry.names.languageName("xx") == nil)
        #expect(LanguageNames(extraLanguages: ["qya": "Quenya"]).isKnownLanguage("qya"))
    }

    @Test func apertiumCodesForAnyLocale() {
        let catalog = registry.catalog
        #expect(ApertiumLanguageCodes.code(for: LocaleTag("en-US")!, catalog: catalog) == ("eng", "US"))
        #expect(ApertiumLanguageCodes.code(for: LocaleTag("es-AR")!, catalog: catalog) == ("spa", nil))
        #expect(ApertiumLanguageCodes.code(for: LocaleTag("is-IS")!, catalog: catalog) == ("isl", nil))
        #expect(ApertiumLanguageCodes.code(for: LocaleTag("sq")!, catalog: catalog) == ("sqi", nil))
        #expect(ApertiumLanguageCodes.locale(forCode: "eng", variant: "US", catalog: catalog) == LocaleTag("en-US"))
        #expect(ApertiumLanguageCodes.locale(forCode: "eng", variant: nil, catalog: catalog) == LocaleTag("en-GB"))
        #expect(ApertiumLanguageCodes.locale(forCode: "spa", variant: nil, catalog: catalog) == LocaleTag("es-ES"))
        #expect(ApertiumLanguageCodes.locale(forCode: "pt", variant: "BR", catalog: catalog) == LocaleTag("pt-BR"))
        #expect(ApertiumLanguageCodes.locale(forCode: "cat", variant: "valencia", catalog: catalog) == LocaleTag("ca-ES"))
        #expect(ApertiumLanguageCodes.locale(forCode: "isl", variant: nil, catalog: catalog) == LocaleTag("is"))
    }

    @Test func catalogMapsEnginesCodes() throws {
        let spanish = try #require(registry.catalog.info(for: LocaleTag("es-ES")!))
        #expect(spanish.espeakVoice == "es")
        #expect(spanish.apertiumCode == "spa")
        let american = try #require(registry.catalog.info(for: LocaleTag("en-US")!))
        #expect(american.apertiumCode == "eng")
        #expect(american.apertiumVariant == "US")
        #expect(registry.catalog.info(for: LocaleTag("gl-ES")!)?.espeakVoice == nil)
    }

    @Test func userFilesOverrideShippedRows() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "recognition\ten\ten-GB,en-US\n".write(to: directory.appendingPathComponent("locale-priority.tsv"),
                                                   atomically: true, encoding: .utf8)
        try "en-AU\tAustralian English\ten\teng\n".write(to: directory.appendingPathComponent("locales.tsv"),
                                                          atomically: true, encoding: .utf8)
        let layered = try LocaleRegistry.load(from: [Fixtures.dataDirectory, directory.path])
        #expect(try layered.resolve("en", for: .recognition).description == "en-GB")
        #expect(try layered.resolve("en", for: .synthesis).description == "en-US")
        #expect(try layered.resolve("Australian English").description == "en-AU")
    }
}

/// Malformed data files are reported with file and line.
@Suite struct DataFileErrorTests {
    @Test(arguments: [
        ("en-US\tEnglish\ten-us\n", 1, "expected 4 tab-separated fields"),
        ("# comment\n\nenglish\tEnglish\ten-us\teng\n", 3, "'english' is not a locale tag"),
        ("en\tEnglish\ten-us\teng\n", 1, "of the form language-REGION"),
        ("en-US\tEnglish\ten-us\tenglish\n", 1, "is not an Apertium code"),
    ])
    func catalogLines(text: String, line: Int, message: String) {
        #expect {
            try LocaleCatalog(parsing: text, path: "locales.tsv")
        } throws: { error in
            let error = error as? DataFileError
            return error?.line == line && error?.path == "locales.tsv"
                && error?.description.hasPrefix("locales.tsv:\(line): ") == true
                && error?.message.contains(message) == true
        }
    }

    @Test(arguments: [
        ("recognition\ten\n", "expected 3 tab-separated fields"),
        ("speaking\ten\ten-US\n", "unknown engine 'speaking'"),
        ("synthesis\ten-US\ten-US\n", "not a bare language code"),
        ("synthesis\ten\tes-ES\n", "es-ES is not a locale of language 'en'"),
        ("synthesis\ten\tEnglish\n", "'English' is not a locale tag"),
        ("synthesis\ten\t\n", "no locales listed"),
    ])
    func priorityLines(text: String, message: String) {
        #expect {
            try PriorityTable(parsing: "# header\n" + text, path: "p.tsv")
        } throws: { error in
            (error as? DataFileError)?.line == 2 && (error as? DataFileError)?.message.contains(message) == true
        }
    }

    /// The locale tables hold lines to the limit of the dictionaries and glossaries, a
    /// comment's too; a longer line in a person's override is refused with its file and line.
    @Test(arguments: [LocaleRegistry.catalogFileName, LocaleRegistry.priorityFileName])
    func overlongLinesAreRefusedAsInTheDictionaries(file: String) throws {
        #expect(DataFile.maximumLineBytes == LineDocument<String>.maximumLineBytes)
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(file)
        let row = file == LocaleRegistry.catalogFileName ? "en-AU\tAustralian English\ten\teng" : "recognition\ten\ten-GB"
        let longest = "#" + String(repeating: "é", count: (DataFile.maximumLineBytes - 1) / 2)
            + String(repeating: "x", count: (DataFile.maximumLineBytes - 1) % 2)
        try #require(longest.utf8.count == DataFile.maximumLineBytes)
        try "\(longest)\r\n\(row)\r\n".write(to: path, atomically: true, encoding: .utf8)
        #expect(throws: Never.self) { try LocaleRegistry.load(from: [Fixtures.dataDirectory, directory.path]) }

        try "# a person's rows\n\(row)\n#\(longest)\n".write(to: path, atomically: true, encoding: .utf8)
        #expect {
            try LocaleRegistry.load(from: [Fixtures.dataDirectory, directory.path])
        } throws: { error in
            (error as? DataFileError)?.description
                == "\(path.path):3: the line is \(DataFile.maximumLineBytes + 1) bytes long; a line holds at most 4096 bytes"
        }
    }

    @Test func missingFileNamesIt() {
        #expect {
            try LocaleRegistry.load(from: ["/nonexistent/parley"])
        } throws: { error in
            (error as? DataFileError)?.description == "/nonexistent/parley/locales.tsv: does not exist"
        }
    }
}

/// Finding the shipped data from the places a binary can live.
@Suite struct DataDirectoriesTests {
    @Test func prefersTheEnvironmentThenThePrefix() throws {
        let prefix = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: prefix) }
        let share = prefix.appendingPathComponent("share/parley/dictionaries")
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        try "".write(to: share.appendingPathComponent("locales.tsv"), atomically: true, encoding: .utf8)
        let installed = try DataDirectories.discover(environment: ["HOME": "/home/ana"],
                                                     executablePath: prefix.path + "/bin/parley")
        #expect(installed.shipped == share.path)
        #expect(installed.user == "/home/ana/.local/share/parley/dictionaries")
        #expect(installed.state == "/home/ana/.local/state/parley")
        let explicit = try DataDirectories.discover(
            userOverride: "/tmp/mine", environment: ["PARLEY_DATA_DIR": Fixtures.dataDirectory, "XDG_DATA_HOME": "/x"],
            executablePath: prefix.path + "/bin/parley")
        #expect(explicit.shipped == Fixtures.dataDirectory)
        #expect(explicit.user == "/tmp/mine")
        #expect(explicit.models == "/x/parley/models")
    }

    @Test func fallsBackToTheSourceTree() throws {
        let found = try DataDirectories.discover(environment: ["HOME": "/h"], executablePath: "/nowhere/bin/parley")
        #expect(found.shipped == DataDirectories.sourceTreeDataDirectory)
        #expect(FileManager.default.fileExists(atPath: found.shipped + "/locales.tsv"))
    }
}
