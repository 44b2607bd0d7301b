import Foundation

/// A plain-text table with columns padded to their widest cell.
final class TextTable {
    private var rows: [[String]]

    /// Starts a table with a header row.
    init(header: [String]) {
        rows = [header]
    }

    /// Adds a row; it must have as many cells as the header.
    func add(_ row: [String]) {
        precondition(row.count == rows[0].count, "a table row must match the header")
        rows.append(row)
    }

    /// The table, one line per row, two spaces between columns, no trailing spaces.
    func render() -> String {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            zip(row, widths).map { cell, width in cell.padding(toLength: width, withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingTrailingSpaces() + "\n"
        }.joined()
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        String(reversed().drop { $0 == " " }.reversed())
    }
}

