import Locales
import Testing
import Translation

/// The translation clean-up rules and the Apertium package index are read under the line
/// limit of every line-based file.
@Suite("Translation table line limit")
struct TranslationTableLineLimitTests {
    @Test func anOverlongLineIsRefusedWithItsFileAndLine() {
        let text = "# ok\n# " + String(repeating: "x", count: DataFile.maximumLineBytes) + "\n"
        #expect(throws: DataFileError.self) { _ = try TranslationCleanup(parsing: text, path: "cleanup.tsv") }
        do {
            _ = try ApertiumPackageIndex(parsing: text, path: "packages.tsv")
            Issue.record("the overlong line was read")
        } catch let error as DataFileError {
            #expect(error.path == "packages.tsv" && error.line == 2, "\(error)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}
