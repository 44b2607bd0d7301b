import Locales
import ParleyCore
import Foundation

/// One installed Apertium translation direction, e.g. `spa-eng_US` or `fr-es`.
public struct ApertiumDirection: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Source language, as an ISO 639-3 code whatever the mode file calls it, e.g. `fra` for `fr-es`.
    public var source: String
    /// Target language, as an ISO 639-3 code, e.g. `eng`.
    public var target: String
    /// Target variant, e.g. `US` in `spa-eng_US`.
    public var variant: String?
    /// The `.mode` file that describes the pipeline.
    public var modeFile: String
    /// The mode's name, as `apertium -l` prints it and `apertium -u` takes it, e.g. `fr-es`.
    public private(set) var name: String

    public var description: String { name }

    public static func < (lhs: ApertiumDirection, rhs: ApertiumDirection) -> Bool { lhs.name < rhs.name }

    /// Parses a mode name such as `eng-spa`, `fr-es` or `spa-eng_US`; nil for other modes (`eng-spa-tagger`).
    public init?(modeName: String, modeFile: String) {
        let parts = modeName.split(separator: "-")
        guard parts.count == 2 else { return nil }
        let targetParts = parts[1].split(separator: "_", maxSplits: 1)
        guard Self.isLanguageCode(parts[0]), Self.isLanguageCode(targetParts[0]) else { return nil }
        source = ApertiumLanguageCodes.normalized(String(parts[0]))
        target = ApertiumLanguageCodes.normalized(String(targetParts[0]))
        variant = targetParts.count > 1 ? String(targetParts[1]) : nil
        self.modeFile = modeFile
        name = modeName
    }

    private static func isLanguageCode(_ code: Substring) -> Bool {
        (2...3).contains(code.count) && code.allSatisfy { $0.isASCII && $0.isLowercase }
    }
}

/// The translation directions installed in Apertium's modes directory.
public struct ApertiumModes: Sendable {
    /// Where Debian's Apertium packages install their modes.
    public static let defaultDirectory = "/usr/share/apertium/modes"

    /// Every translation direction found, sorted.
    public private(set) var directions: [ApertiumDirection]

    /// Lists `directory`'s `*.mode` files; a missing directory means none installed.
    public init(directory: String = ApertiumModes.defaultDirectory) {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        directions = files.filter { $0.hasSuffix(".mode") }
            .compactMap { ApertiumDirection(modeName: String($0.dropLast(5)), modeFile: "\(directory)/\($0)") }
            .sorted()
    }

    /// The given directions, e.g. for working out routes over a set that is not installed.
    public init(directions: [ApertiumDirection]) {
        self.directions = directions.sorted()
    }

    /// Directions from `source` to `target` codes (ISO 639-1 or 639-3), variant-exact ones first.
    public func directions(from source: String, to target: String, variant: String? = nil) -> [ApertiumDirection] {
        let (source, target) = (ApertiumLanguageCodes.normalized(source), ApertiumLanguageCodes.normalized(target))
        let matching = directions.filter { $0.source == source && $0.target == target }
        return matching.filter { $0.variant == variant } + matching.filter { $0.variant != variant }
    }
}
