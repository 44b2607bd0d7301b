import Locales
import ParleyCore

/// Nothing installed serves a locale at all: no voice speaks it, no recognizer hears it and no
/// translation direction leads from or into it, so a conversation in it could do nothing.
struct UnservedLocale: Error, CustomStringConvertible {
    /// The locale, e.g. tlh.
    var locale: LocaleTag
    /// The locale in words, e.g. Klingon.
    var name: String

    var description: String {
        "nothing here serves \(name) (\(locale)): no eSpeak NG voice speaks it, no speech model hears it "
            + "and no Apertium pair translates it (`parley languages` lists what is served)"
    }

    /// Throws when `inventory` shows nothing serving `locale` in a conversation with `other`
    /// (with anyone, when `other` is nil).
    static func check(_ locale: LocaleTag, talkingWith other: LocaleTag? = nil, in inventory: Inventory) throws {
        let targets = inventory.translationTargets(from: locale)
        let translates = other.map { other in
            targets.contains { $0.language == other.language }
                || inventory.translationTargets(from: other).contains { $0.language == locale.language }
        } ?? !targets.isEmpty
        guard !inventory.canSpeak(locale), !inventory.canRecognize(locale), !translates else { return }
        throw UnservedLocale(locale: locale, name: inventory.locales.displayName(of: locale))
    }
}
