/// Finds the known key an unknown `Info.plist` key was probably meant to be:
/// the same key in another case (`UIApplicationShortcutItemSubTitle`), or one
/// at most two edits away (`CFBundleIdentifer`, `UIApplicationShortcutItmes`).
/// Keys far from every known one are someone else's and stay unremarked.
enum KeySuggestion {
    /// The most edits (insertions, deletions, substitutions) a misspelling may be away.
    static let maximumDistance = 2

    /// The known key `key` was most likely meant to be, or nil. Exact matches are not
    /// misspellings, so they give nil.
    static func likelyKey(for key: String, among known: [String]) -> String? {
        guard !known.contains(key) else { return nil }
        if let sameLetters = known.first(where: { $0.lowercased() == key.lowercased() }) { return sameLetters }
        // Long, hostile keys cost nothing: lengths further apart than the bound cannot match.
        var best: (key: String, distance: Int)?
        for candidate in known where abs(candidate.utf8.count - key.utf8.count) <= maximumDistance {
            let distance = editDistance(Array(key.utf8), Array(candidate.utf8), bound: maximumDistance)
            if distance <= maximumDistance, distance < best?.distance ?? Int.max {
                best = (candidate, distance)
            }
        }
        return best?.key
    }

    /// Levenshtein distance of `a` and `b`, or `bound + 1` once it exceeds `bound`.
    static func editDistance(_ a: [UInt8], _ b: [UInt8], bound: Int) -> Int {
        guard !a.isEmpty else { return min(b.count, bound + 1) }
        guard !b.isEmpty else { return min(a.count, bound + 1) }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > bound { return bound + 1 }
            swap(&previous, &current)
        }
        return min(previous[b.count], bound + 1)
    }
}
