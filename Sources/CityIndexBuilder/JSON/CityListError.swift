// CityListError.swift: what is wrong with the city list, and where.
import Foundation

/// A city list that cannot be built: malformed JSON or a record that breaks a rule.
/// Says where (1-based line and column; the column counts characters) and which record
/// (its `_id`) when known.
public struct CityListError: Error, Equatable, Sendable {
    public let line: Int
    public let column: Int
    /// The `_id` of the record at fault, when it was read before the fault was found.
    public let recordID: UInt32?
    public let message: String

    public init(line: Int, column: Int, recordID: UInt32? = nil, message: String) {
        self.line = line
        self.column = column
        self.recordID = recordID
        self.message = message
    }
}

extension CityListError: CustomStringConvertible {
    /// `line:column: [record _id N: ]message`, to follow the input's name.
    public var description: String {
        "\(line):\(column): " + (recordID.map { "record _id \($0): " } ?? "") + message
    }
}

/// A 1-based line and column in the input.
struct InputPosition: Equatable {
    var line: Int
    var column: Int
}

extension CityListError: LocalizedError {
    public var errorDescription: String? { description }
}
