import Locales

/// Which routes lead from one language to another over a set of Apertium
/// directions: the direct direction when there is one, otherwise chains
/// through other languages (`fr → es → en`).
///
/// Routes are ranked: a direct direction first, then the shortest chain;
/// chains of the same length prefer the pivot languages with the most
/// installed directions (the hub, Spanish with Debian's pairs: its pairs are
/// the most developed), then the pivot codes in alphabetical order, so the
/// choice never depends on the order files were listed in. Every leg but the
/// last uses the pivot language's plain direction (no variant); the last leg
/// prefers the target's variant, as a direct translation does.
///
/// ```swift
/// let routes = TranslationRoutes(modes: ApertiumModes())
/// routes.best(from: "fr", to: "en", variant: "US")?.name   // "fr-es+spa-eng_US"
/// ```
public struct TranslationRoutes: Sendable {
    /// The longest chain considered: two pivot languages.
    public static let maximumLegs = 3

    /// The directions routes are made of.
    public let modes: ApertiumModes
    private let degree: [String: Int]

    /// Routes over `modes`' directions.
    public init(modes: ApertiumModes) {
        self.modes = modes
        var degree: [String: Int] = [:]
        for direction in modes.directions {
            degree[direction.source, default: 0] += 1
            degree[direction.target, default: 0] += 1
        }
        self.degree = degree
    }

    /// Every language of an installed direction, as ISO 639-3 codes, sorted.
    public var languages: [String] { degree.keys.sorted() }

    /// The best route from `source` to `target` (ISO 639-1 or 639-3 codes), or nil when none exists.
    public func best(from source: String, to target: String, variant: String? = nil) -> TranslationRoute? {
        routes(from: source, to: target, variant: variant).first
    }

    /// Every language `source` reaches, directly or through others, with its best route (no variant), by ISO 639-3 code.
    public func bestRoutes(from source: String) -> [String: TranslationRoute] {
        var found: [String: TranslationRoute] = [:]
        for target in languages {
            if let route = best(from: source, to: target) { found[target] = route }
        }
        return found
    }

    /// Every route from `source` to `target` of at most `maximumLegs` directions, best first.
    public func routes(from source: String, to target: String, variant: String? = nil,
                       maximumLegs: Int = TranslationRoutes.maximumLegs) -> [TranslationRoute] {
        let (source, target) = (ApertiumLanguageCodes.normalized(source), ApertiumLanguageCodes.normalized(target))
        guard source != target else { return [] }
        return paths(from: source, to: target, maximumLegs: maximumLegs)
            .compactMap { route(through: $0, variant: variant) }
            .sorted(by: ranksBefore)
    }

    /// Whether `lhs` is a better route than `rhs`: fewer legs, then better-connected pivots, then codes.
    func ranksBefore(_ lhs: TranslationRoute, _ rhs: TranslationRoute) -> Bool {
        if lhs.legs.count != rhs.legs.count { return lhs.legs.count < rhs.legs.count }
        let (left, right) = (lhs.pivots.map { degree[$0] ?? 0 }, rhs.pivots.map { degree[$0] ?? 0 })
        if left != right { return left.lexicographicallyPrecedes(right, by: >) }
        return lhs.pivots.lexicographicallyPrecedes(rhs.pivots)
    }

    /// Language sequences from `source` to `target` with no language twice.
    private func paths(from source: String, to target: String, maximumLegs: Int) -> [[String]] {
        var found: [[String]] = []
        func extend(_ path: [String]) {
            guard let last = path.last, path.count <= maximumLegs else { return }
            for next in Set(modes.directions.filter { $0.source == last }.map(\.target)).sorted() where !path.contains(next) {
                if next == target { found.append(path + [next]) } else { extend(path + [next]) }
            }
        }
        extend([source])
        return found
    }

    /// The directions along `languages`: plain ones for pivots, the target's variant preferred for the last leg.
    private func route(through languages: [String], variant: String?) -> TranslationRoute? {
        var legs: [ApertiumDirection] = []
        for (index, (from, to)) in zip(languages, languages.dropFirst()).enumerated() {
            let isLast = index == languages.count - 2
            guard let leg = modes.directions(from: from, to: to, variant: isLast ? variant : nil).first else { return nil }
            legs.append(leg)
        }
        return TranslationRoute(legs: legs)
    }
}
