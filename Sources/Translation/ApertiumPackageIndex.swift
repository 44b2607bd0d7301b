import Locales
import Foundation

/// The Debian packages that provide Apertium language pairs, read from
/// `apertium-packages.tsv`, so a missing direction can name what to install.
///
/// Debian names pairs with two- or three-letter codes in either order
/// (`apertium-eng-spa`, `apertium-fr-es`), so a package matches when its two
/// codes are the two languages, each by its ISO 639-1 or Apertium code.
public struct ApertiumPackageIndex: Sendable, Equatable {
    /// The data file's name in a data directory.
    public static let fileName = "apertium-packages.tsv"

    /// Package names, e.g. `apertium-eng-spa`.
    public private(set) var packages: [String]

    /// Creates an index of known package names.
    public init(packages: [String] = []) {
        self.packages = packages
    }

    /// Parses the text of an `apertium-packages.tsv` file (one package name per row); `path` names it in errors.
    public init(parsing text: String, path: String) throws {
        packages = try DataFile.rows(of: text, path: path).map { row in
            guard row.fields[0].hasPrefix("apertium-"), row.fields[0].split(separator: "-").count == 3 else {
                throw DataFileError(path: path, line: row.line,
                                    message: "'\(row.fields[0])' is not a pair package name such as apertium-eng-spa")
            }
            return row.fields[0]
        }
    }

    /// The packages listed in `directories` (later directories add to earlier ones); missing files are skipped.
    public static func load(from directories: [String]) throws -> ApertiumPackageIndex {
        var index = ApertiumPackageIndex()
        for directory in directories {
            let path = (directory as NSString).appendingPathComponent(fileName)
            guard FileManager.default.fileExists(atPath: path) else { continue }
            index.packages += try ApertiumPackageIndex(parsing: DataFile.read(path), path: path).packages
        }
        return index
    }

    /// The package that pairs a language known by `sourceCodes` with one known by `targetCodes`.
    public func package(pairing sourceCodes: Set<String>, with targetCodes: Set<String>) -> String? {
        packages.first { name in
            let codes = name.split(separator: "-").dropFirst().map(String.init)
            return (sourceCodes.contains(codes[0]) && targetCodes.contains(codes[1]))
                || (targetCodes.contains(codes[0]) && sourceCodes.contains(codes[1]))
        }
    }

    /// The packages none of whose two languages' directions is among `directions`: the pairs
    /// Debian offers that this machine lacks, sorted.
    public func notInstalled(given directions: [ApertiumDirection]) -> [String] {
        let installed = Set(directions.map { [ApertiumLanguageCodes.normalized($0.source), ApertiumLanguageCodes.normalized($0.target)] })
        return packages.filter { name in
            let codes = name.split(separator: "-").dropFirst().map { ApertiumLanguageCodes.normalized(String($0)) }
            return !installed.contains([codes[0], codes[1]]) && !installed.contains([codes[1], codes[0]])
        }.sorted()
    }

    /// Packages that would join `sourceCodes` to `targetCodes` through a language `routes` already reach:
    /// one that pairs the source with a language that has a route to the target, or a language the source
    /// reaches with the target; each with the language it goes through (`apertium-es-ro (through Spanish)`), sorted.
    public func packages(joining sourceCodes: Set<String>, with targetCodes: Set<String>,
                         over routes: TranslationRoutes) -> [String] {
        var found: Set<String> = []
        for pivot in routes.languages {
            let pivotCodes = ApertiumLanguageCodes.forms(pivot)
            guard pivotCodes.isDisjoint(with: sourceCodes), pivotCodes.isDisjoint(with: targetCodes) else { continue }
            let through = " (through \(ApertiumLanguageCodes.englishName(pivot)))"
            if sourceCodes.contains(where: { !routes.routes(from: $0, to: pivot).isEmpty }),
               let package = package(pairing: pivotCodes, with: targetCodes) { found.insert(package + through) }
            if targetCodes.contains(where: { !routes.routes(from: pivot, to: $0).isEmpty }),
               let package = package(pairing: sourceCodes, with: pivotCodes) { found.insert(package + through) }
        }
        return found.sorted()
    }
}
