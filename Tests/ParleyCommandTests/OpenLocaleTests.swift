import Foundation
import Testing
import TestSupport

/// Locales come from the installed engines, not from a list: `say` in locales no table names,
/// `languages` listing every eSpeak NG language, bad tags and unserved locales in one sentence.
@Suite("Open locales: any BCP 47 tag the installed engines serve")
struct OpenLocaleTests {
    /// Locales outside locales.tsv, each with the eSpeak NG voice that should speak it and a sentence in it.
    static let spoken: [(locale: String, voice: String, text: String)] = [
        ("sq-AL", "sq", "Mirëdita, si jeni?"), ("sq", "sq", "Faleminderit shumë."),
        ("hi-IN", "hi", "नमस्ते, आप कैसे हैं?"), ("ar", "ar", "مرحبا، كيف حالك؟"),
        ("sw", "sw", "Habari ya asubuhi."), ("is-IS", "is", "Góðan daginn."),
        ("ja", "ja", "こんにちは"), ("ko-KR", "ko", "안녕하세요"), ("tr-TR", "tr", "Günaydın, nasılsınız?"),
        ("el-GR", "el", "Καλημέρα σας."), ("fi-FI", "fi", "Hyvää huomenta."), ("vi-VN", "vi", "Xin chào."),
        ("zh-CN", "cmn", "你好"), ("hy-AM", "hy", "Բարև ձեզ"), ("no", "nb", "God morgen."),
        ("es-AR", "es", "Buenos días."), ("fr-BE", "fr-be", "Bonjour à tous."),
    ]

    @Test("say speaks a locale outside the table with its language's voice, sample for sample as espeak-ng does",
          arguments: spoken)
    func saysWithTheClosestVoice(locale: String, voice: String, text: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("say.wav").path
        let result = try ProcessRunner.parley(["say", "--locale", locale, "--out", path, text])
        #expect(result.status == 0, "\(result.stderr)")
        let parley = try Self.samples(ofWAV: Data(contentsOf: URL(fileURLWithPath: path)))
        let espeak = try Self.espeak(voice: voice, text: text, in: directory)
        #expect(parley.count > 2_205, "expected speech, found \(parley.count) samples")
        #expect(parley == espeak, "\(locale) should speak with eSpeak NG's \(voice) voice")
    }

    @Test("the comparison tells voices apart: pt-BR is not spoken with the pt voice")
    func comparisonDiscriminates() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = "Bom dia, tudo bem?"
        let brazilian = try Self.espeak(voice: "pt-br", text: text, in: directory)
        let portuguese = try Self.espeak(voice: "pt", text: text, in: directory)
        #expect(!brazilian.isEmpty && brazilian != portuguese)
    }

    @Test("languages --json lists every language espeak-ng --voices lists, each as a voice of a row that speaks it")
    func languagesListsEveryESpeakLanguage() throws {
        let output = try ProcessRunner.parley(["languages", "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]])
        let listed = try ProcessRunner.run(["espeak-ng", "--voices"]).stdout.split(separator: "\n").dropFirst()
            .compactMap { $0.split(separator: " ").dropFirst().first.map(String.init) }
        #expect(Set(listed).count > 100)
        for language in Set(listed) {
            let code = String(language.split(separator: "-").first ?? "")
            let row = rows.first { ($0["voices"] as? [String])?.contains(language) == true
                && ($0["locale"] as? String)?.lowercased().hasPrefix(code) == true }
            #expect(row != nil, "eSpeak NG's \(language) is in no row of its language")
            #expect(row?["synthesis"] as? Bool == true)
        }
        let albanian = try #require(rows.first { $0["locale"] as? String == "sq" })
        #expect(albanian["name"] as? String == "Albanian")
        #expect(albanian["recognizers"] as? [String] == ["whisper"], "Whisper's model knows Albanian")
        #expect(albanian["translation"] as? [String] == [])
        let norwegian = try #require(rows.first { $0["locale"] as? String == "nb-NO" })
        #expect(norwegian["recognizers"] as? [String] == ["whisper"], "Whisper knows Norwegian Bokmål as no")
        #expect(rows.contains { $0["locale"] as? String == "jv" && $0["name"] as? String == "Javanese" }, "Whisper's jw is BCP 47 jv")
        #expect(!rows.contains { $0["locale"] as? String == "jw" })
    }

    @Test("languages names the targets reached only through another language, and only those")
    func pivotedTargets() throws {
        let output = try ProcessRunner.parley(["languages", "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]])
        // The installed directions, read off Apertium's own mode files, as (source, target) language pairs.
        let two = ["fra": "fr", "spa": "es", "eng": "en", "por": "pt", "cat": "ca", "ita": "it"]
        let directions: Set<[String]> = Set(try FileManager.default.contentsOfDirectory(atPath: "/usr/share/apertium/modes")
            .filter { $0.hasSuffix(".mode") && !$0.hasPrefix("eco-") }
            .map { name in
                name.dropLast(5).split(separator: "-").prefix(2).map { part in
                    let code = String(part.split(separator: "_").first ?? "")
                    return two[code] ?? code
                }
            })
        var checked = 0
        for locale in ["fr-FR", "en-US", "it-IT"] {
            let row = try #require(rows.first { $0["locale"] as? String == locale })
            let source = String(locale.prefix(2))
            let direct = Set((row["translation"] as? [String] ?? []).map { String($0.prefix(2)) })
            for entry in row["pivoted"] as? [String] ?? [] {
                let parts = entry.components(separatedBy: " via ")
                try #require(parts.count == 2, "\(entry) says which language it goes through")
                let (target, pivot) = (String(parts[0].prefix(2)), parts[1])
                #expect(!directions.contains([source, target]), "\(locale) → \(target) has a direct pair, yet is listed as pivoted")
                #expect(!direct.contains(target))
                #expect(directions.contains([source, pivot]) && directions.contains([pivot, target]),
                        "\(entry): both legs must be installed directions")
                checked += 1
            }
        }
        let english = try #require(rows.first { $0["locale"] as? String == "en-US" })
        #expect((english["pivoted"] as? [String])?.contains("fr-FR via es") == true,
                "with eng-spa and es-fr installed and no English–French pair, English reaches French through Spanish")
        #expect(checked >= 6)
    }

    @Test("the Markdown table has the same rows as the text table")
    func markdownTable() throws {
        let text = try ProcessRunner.parley(["languages"])
        let markdown = try ProcessRunner.parley(["languages", "--markdown"])
        #expect(markdown.status == 0, "\(markdown.stderr)")
        let lines = markdown.stdout.split(separator: "\n")
        #expect(lines.first == "| locale | name | recognition | synthesis (voice) | translates to |")
        #expect(lines.count == text.stdout.split(separator: "\n").count + 1)
        #expect(lines.contains { $0.hasPrefix("| sq | Albanian | whisper | sq |") })
    }

    @Test("a bad tag gets one sentence saying what is wrong and a non-zero exit", arguments: [
        ("en_US", "'en_US' is not a BCP 47 language tag: subtags are joined with '-', not '_'; use en-US"),
        ("xx", "'xx' names no known language: 'xx' is not an ISO 639 language code"),
        (String(repeating: "a", count: 300), "the locale is 300 characters long, which no language tag is"),
        ("en-USA", "'en-USA' is not a BCP 47 language tag such as en-US"),
        ("sq-QQ", "'sq-QQ' names no known region: 'QQ' is not an ISO 3166 region"),
    ])
    func badTags(tag: String, message: String) throws {
        for arguments in [["say", "--locale", tag, "--out", "/tmp/never.wav", "hi"], ["listen", "--locale", tag, "--file", "/nonexistent.wav"],
                          ["dialog", tag, "en-US", "--typed-only", "--no-history", "--no-transcript"]] {
            let output = try ProcessRunner.parley(arguments, input: Data())
            #expect(output.status != 0)
            #expect(output.stderr.hasPrefix("parley: \(message)"), "\(arguments[0]): \(output.stderr)")
            #expect(output.stderr.split(separator: "\n").count == 1)
        }
    }

    @Test("listen in a locale no recognizer serves names what is missing and what would serve it")
    func unservedRecognition() throws {
        let file = Fixtures.recording("goforward.raw")
        let noWhisper = try ProcessRunner.parley(["listen", "--locale", "sq-AL", "--file", file],
                                                 environment: ["PARLEY_WHISPER_PYTHON": "/nonexistent/python3"])
        #expect(noWhisper.status == 1)
        #expect(noWhisper.stderr.hasPrefix("parley: no speech model for Albanian (sq-AL): PocketSphinx has models for en-US only, "
                                           + "and Whisper, which hears 99 languages, is missing"))
        #expect(noWhisper.stderr.contains("run `make models`"))
        let unknownToWhisper = try ProcessRunner.parley(["listen", "--locale", "chr", "--file", file])
        #expect(unknownToWhisper.status == 1)
        #expect(unknownToWhisper.stderr.hasPrefix("parley: no speech model for Cherokee (chr): "))
        #expect(unknownToWhisper.stderr.contains("the installed Whisper model does not know the language"))
        let forced = try ProcessRunner.parley(["listen", "--recognizer", "pocketsphinx", "--locale", "sq", "--file", file])
        #expect(forced.stderr == "parley: no speech model for Albanian (sq): PocketSphinx has models for en-US only; "
                + "Whisper serves it: drop --recognizer pocketsphinx\n")
    }

    @Test("listen accepts a locale the catalog does not name when Whisper serves it")
    func listensInAnUnlistedLocale() throws {
        for locale in ["en-AU", "English"] {
            let output = try ProcessRunner.parley(["listen", "--locale", locale, "--file", Fixtures.recording("goforward.raw")])
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stdout.lowercased().contains("forward"))
        }
    }

    @Test("dialog and :b take any locale the engines serve, and refuse one nothing serves")
    func dialogLocales() throws {
        let state = try Fixtures.temporaryDirectory("parley-locales")
        defer { try? FileManager.default.removeItem(at: state) }
        let output = try ProcessRunner.parley(["dialog", "fr-FR", "en-US", "--typed-only", "--mute", "--no-history", "--no-transcript"],
                                              input: Data(":b sq-AL\n:b en_GB\n:a Klingon\n:a hi\n".utf8),
                                              environment: ["XDG_STATE_HOME": state.path])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("note: side B now speaks sq-AL"))
        #expect(lines.contains("error: 'en_GB' is not a BCP 47 language tag: subtags are joined with '-', not '_'; use en-GB"))
        #expect(lines.contains { $0.hasPrefix("error: nothing here serves Klingon (tlh): no eSpeak NG voice speaks it") })
        #expect(lines.contains("note: side A now speaks hi"))
        let refused = try ProcessRunner.parley(["dialog", "en", "tlh", "--typed-only", "--no-history", "--no-transcript"], input: Data())
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("parley: nothing here serves Klingon (tlh)"))
    }

    @Test("a dialogue side in nb-NO or nn listens: Whisper knows Norwegian as no, as listen maps it")
    func norwegianSideListens() throws {
        let state = try Fixtures.temporaryDirectory("parley-nb")
        defer { try? FileManager.default.removeItem(at: state) }
        let run = try DialogueRun(["dialog", "nb-NO", "en-US", "--mute", "--no-history", "--no-transcript"],
                                  environment: ["XDG_STATE_HOME": state.path])
        try run.waitForLine(timeout: 90) { $0.hasPrefix("A (nb-NO), your turn") }
        run.send(":a nn")
        try run.waitForLine { $0 == "note: side A now speaks nn" }
        #expect(try run.finish() == 0, "\(run.stderr)")
        #expect(run.lines.contains("A (nb-NO), your turn"), "\(run.stdout)")
        #expect(!run.stdout.contains("typed only") && !run.stdout.contains("typed-only"), "\(run.stdout)")
    }

    /// What `espeak-ng -v VOICE -w FILE TEXT` writes, as samples.
    static func espeak(voice: String, text: String, in directory: URL) throws -> [Int16] {
        let path = directory.appendingPathComponent("espeak-\(voice).wav").path
        let result = try ProcessRunner.run(["espeak-ng", "-v", voice, "-w", path, text])
        guard result.status == 0 else { throw ProcessRunner.Failure(message: "espeak-ng -v \(voice) failed: \(result.stderr)") }
        return try samples(ofWAV: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The 16-bit samples of a WAV file's data chunk, without the silence espeak-ng's own writer appends.
    static func samples(ofWAV data: Data) throws -> [Int16] {
        let bytes = [UInt8](data)
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            var size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            if id == "data" {
                if size == 0 || size > bytes.count - offset - 8 { size = bytes.count - offset - 8 }
                var samples = stride(from: offset + 8, to: offset + 8 + size - 1, by: 2).map {
                    Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
                }
                while samples.last == 0 { samples.removeLast() }
                return samples
            }
            offset += 8 + size + (size & 1)
        }
        throw WAVWithoutData()
    }

    struct WAVWithoutData: Error {}
}
