/// The Levenshtein distance between two sequences: how many insertions,
/// deletions and substitutions turn `a` into `b`.
///
/// Over characters it ranks suggestions for a mistyped locale or voice; over
/// words it counts a transcript's errors against a reference (word error rate).
public func editDistance<Element: Equatable>(_ a: [Element], _ b: [Element]) -> Int {
    guard !a.isEmpty else { return b.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in stride(from: 1, through: b.count, by: 1) {
            let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
            current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
        }
        previous = current
    }
    return previous[b.count]
}
