public import ParleyCore
public import Recognition

/// PocketSphinx behind `RecognizerRouter`: it serves a locale it resolves to an installed model.
extension PocketSphinxRecognizer: RoutedRecognizer {
    /// Whether an installed model serves `locale` (`resolve` finds one).
    public func serves(_ locale: LocaleTag) async -> Bool {
        (try? resolve(locale)) != nil
    }
}
