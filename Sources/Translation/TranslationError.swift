public import ParleyCore

/// Why a sentence could not be translated, in words a person can act on.
public enum TranslationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The locale is not in the locale catalog, so its Apertium code is unknown.
    case unknownLocale(LocaleTag)
    /// No installed direction translates between the two locales.
    case missingDirection(MissingDirection)
    /// The two locales are one language (`en-US`, `en-GB`) and no direction is installed between them.
    case sameLanguage(LocaleTag, LocaleTag)
    /// The text cannot be sent to Apertium (it contains a NUL byte, or is too long).
    case invalidInput(String)
    /// The pipeline failed twice in a row for one sentence.
    case engineFailed(direction: String, reason: String)
    /// A program Apertium needs is not installed.
    case toolMissing(String)
    /// `apertium-wblank-mode` could not read a mode file.
    case unreadableMode(String, String)

    /// The facts behind a missing-direction error.
    public struct MissingDirection: Sendable, Equatable {
        /// The locales asked for.
        public var source: LocaleTag, target: LocaleTag
        /// The Apertium direction that would serve them, e.g. `fra-spa`.
        public var wanted: String
        /// Every installed direction, sorted.
        public var installed: [String]
        /// The Debian package that provides the pair, when one is known.
        public var package: String?
        /// Packages that would join the two through an installed language instead, e.g. `apertium-es-ro (through Spanish)`.
        public var throughPackages: [String] = []
    }

    public var description: String {
        switch self {
        case let .unknownLocale(tag):
            "no Apertium language code is known for \(tag); add it to locales.tsv in your --dictionaries directory"
        case let .missingDirection(missing):
            missing.description
        case let .sameLanguage(source, target):
            source == target
                ? "\(source) into \(target) is no translation: the two locales are the same"
                : "\(source) and \(target) are one language, and no Apertium translation between its varieties is installed"
        case let .invalidInput(reason):
            "the text cannot be translated: \(reason)"
        case let .engineFailed(direction, reason):
            "Apertium \(direction) failed twice for this sentence (\(reason)); check `apertium \(direction)` by hand"
        case let .toolMissing(tool):
            "\(tool) was not found; install Apertium with `apt-get install apertium`"
        case let .unreadableMode(file, problem):
            "the Apertium mode \(file) could not be read" + (problem.isEmpty ? "" : " (\(problem))")
                + "; reinstall its language pair"
        }
    }
}

extension TranslationError.MissingDirection: CustomStringConvertible {
    public var description: String {
        let installedList = installed.isEmpty ? "none" : installed.joined(separator: ", ")
        let through = throughPackages.isEmpty ? nil : "translate through another language by installing "
            + throughPackages.joined(separator: " or ")
        let remedy = package.map { "install it with `apt-get install \($0)`" + (through.map { ", or \($0)" } ?? "") }
            ?? through ?? "no Debian package is known for it (`apt-cache search apertium` lists the pairs)"
        return "no Apertium translation from \(source) to \(target) (\(wanted)) is installed, directly or through another language; "
            + "installed directions: \(installedList); \(remedy)"
    }
}
