// SQLiteStrategies.swift: strategy 5, what an app developer would reach for instead.
import CSQLite
@_spi(Benchmarks) import CityIndexBuilder

/// Strategy 5a: `key >= prefix AND key < successor(prefix)` on the B-tree index over
/// (key, country, id): one count and one page query per search.
public final class SQLiteRangeQuery: SearchStrategy {
    public static let name = "SQLite range query"
    private let connection: SQLiteConnection
    private let countStatement: OpaquePointer
    private let pageStatement: OpaquePointer

    public init(path: String) throws {
        connection = try SQLiteConnection(path: path, readOnly: true)
        countStatement = try connection.prepare("SELECT count(*) FROM city WHERE key >= ?1 AND key < ?2")
        pageStatement = try connection.prepare(
            "SELECT id, name FROM city WHERE key >= ?1 AND key < ?2 ORDER BY key, country, id LIMIT ?3")
    }

    deinit {
        sqlite3_finalize(countStatement)
        sqlite3_finalize(pageStatement)
    }

    public func search(_ query: String, limit: Int) -> SearchAnswer {
        let folded = FoldedQuery(query)
        // Folded keys are UTF-8, which never contains 0xFF: the successor of a prefix is the
        // prefix with its last byte incremented, and of the empty prefix, [0xFF].
        var upper = folded.bytes
        if let last = upper.popLast() { upper.append(last + 1) } else { upper = [0xFF] }
        for statement in [countStatement, pageStatement] {
            sqlite3_reset(statement)
            folded.bytes.withUnsafeBytes { _ = sqlite3_bind_blob(statement, 1, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count), cityindex_sqlite_transient()) }
            upper.withUnsafeBytes { _ = sqlite3_bind_blob(statement, 2, $0.baseAddress, Int32($0.count), cityindex_sqlite_transient()) }
        }
        sqlite3_bind_int64(pageStatement, 3, Int64(limit))
        return SQLiteAnswer.read(count: countStatement, page: pageStatement, foldedQueryScalarCount: folded.scalarCount)
    }
}

/// Strategy 5b: FTS5 with a prefix index, queried as `^"w1" + … + "wk"*` (the name's first
/// tokens, the last one a prefix). Its tokenizer drops punctuation and splits words, so it
/// answers a slightly different question than SEARCH.md; the harness reports how often it agrees.
public final class SQLiteFullTextSearch: SearchStrategy {
    public static let name = "SQLite FTS5 prefix"
    private let connection: SQLiteConnection
    private let countStatement: OpaquePointer
    private let pageStatement: OpaquePointer

    public init(path: String) throws {
        connection = try SQLiteConnection(path: path, readOnly: true)
        countStatement = try connection.prepare("SELECT count(*) FROM city_fts WHERE city_fts MATCH ?1")
        pageStatement = try connection.prepare("""
            SELECT c.id, c.name FROM city_fts f JOIN city c ON c.id = f.rowid
            WHERE city_fts MATCH ?1 ORDER BY c.key, c.country, c.id LIMIT ?2
            """)
    }

    deinit {
        sqlite3_finalize(countStatement)
        sqlite3_finalize(pageStatement)
    }

    public func search(_ query: String, limit: Int) -> SearchAnswer {
        let folded = FoldedQuery(query)
        let text = String(decoding: folded.bytes, as: UTF8.self)
        let words = text.split { !$0.isLetter && !$0.isNumber }.map(String.init)
        guard !words.isEmpty else {
            return SearchAnswer(count: -1, ids: [], highlights: [])   // FTS5 cannot express it
        }
        let endsInWord = text.last.map { $0.isLetter || $0.isNumber } ?? false
        let expression = "^" + words.map { "\"\($0)\"" }.joined(separator: " + ") + (endsInWord ? "*" : "")
        for statement in [countStatement, pageStatement] {
            sqlite3_reset(statement)
            sqlite3_bind_text(statement, 1, expression, -1, cityindex_sqlite_transient())
        }
        sqlite3_bind_int64(pageStatement, 2, Int64(limit))
        return SQLiteAnswer.read(count: countStatement, page: pageStatement, foldedQueryScalarCount: folded.scalarCount)
    }
}

/// Reads a count statement and a page statement of `(id, name)` rows into an answer.
enum SQLiteAnswer {
    static func read(count countStatement: OpaquePointer, page pageStatement: OpaquePointer,
                     foldedQueryScalarCount: Int) -> SearchAnswer {
        sqlite3_step(countStatement)
        let count = Int(sqlite3_column_int64(countStatement, 0))
        var ids: [Int] = []
        var highlights: [Int] = []
        while sqlite3_step(pageStatement) == SQLITE_ROW {
            ids.append(Int(sqlite3_column_int64(pageStatement, 0)))
            let name = String(cString: sqlite3_column_text(pageStatement, 1))
            highlights.append(SearchKey.highlightUTF16Length(name: name, foldedQueryScalarCount: foldedQueryScalarCount))
        }
        return SearchAnswer(count: count, ids: ids, highlights: highlights)
    }
}
