// SQLiteDatabase.swift: the database strategies 5a and 5b query, built once.
import CSQLite
@_spi(Benchmarks) import CityIndexBuilder
import Foundation

/// A thin wrapper over the system SQLite: open, execute, prepared statements.
final class SQLiteConnection {
    let handle: OpaquePointer

    init(path: String, readOnly: Bool) throws {
        var handle: OpaquePointer?
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK, let handle else {
            throw SQLiteError(message: "cannot open \(path)")
        }
        self.handle = handle
    }

    deinit { sqlite3_close(handle) }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw SQLiteError(message: String(cString: sqlite3_errmsg(handle)))
        }
    }

    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw SQLiteError(message: String(cString: sqlite3_errmsg(handle)))
        }
        return statement
    }
}

struct SQLiteError: Error, CustomStringConvertible {
    let message: String
    var description: String { "SQLite: \(message)" }
}

/// Builds the database both SQLite strategies read: a `city` table with the SEARCH.md key as
/// a BLOB and a B-tree index on (key, country, id), plus an FTS5 table over the names with
/// a prefix index.
public enum SQLiteCityDatabase {
    public static func build(cities: [DecodedCity], at path: String) throws {
        try? FileManager.default.removeItem(atPath: path)
        let connection = try SQLiteConnection(path: path, readOnly: false)
        try connection.execute("""
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
            CREATE TABLE city (id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT NOT NULL,
                               lat REAL NOT NULL, lon REAL NOT NULL, key BLOB NOT NULL);
            BEGIN;
            """)
        let insert = try connection.prepare("INSERT INTO city VALUES (?, ?, ?, ?, ?, ?)")
        for city in cities {
            let key = SearchKey.foldedBytes(city.name)
            sqlite3_bind_int64(insert, 1, Int64(city.id))
            sqlite3_bind_text(insert, 2, city.name, -1, cityindex_sqlite_transient())
            sqlite3_bind_text(insert, 3, city.country, -1, cityindex_sqlite_transient())
            sqlite3_bind_double(insert, 4, city.coord.lat)
            sqlite3_bind_double(insert, 5, city.coord.lon)
            key.withUnsafeBytes { _ = sqlite3_bind_blob(insert, 6, $0.baseAddress, Int32($0.count), cityindex_sqlite_transient()) }
            guard sqlite3_step(insert) == SQLITE_DONE else { throw SQLiteError(message: String(cString: sqlite3_errmsg(connection.handle))) }
            sqlite3_reset(insert)
        }
        sqlite3_finalize(insert)
        try connection.execute("""
            COMMIT;
            CREATE INDEX city_key ON city (key, country, id);
            CREATE VIRTUAL TABLE city_fts USING fts5(name, content='city', content_rowid='id',
                prefix='1 2 3', tokenize='unicode61 remove_diacritics 2');
            INSERT INTO city_fts (rowid, name) SELECT id, name FROM city;
            INSERT INTO city_fts (city_fts) VALUES ('optimize');
            ANALYZE;
            """)
    }
}
