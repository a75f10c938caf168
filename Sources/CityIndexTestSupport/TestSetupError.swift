// TestSetupError.swift: a test could not set up what it needs (a tool, a server, a terminal).

/// Thrown when a test cannot prepare its environment, saying what is missing; distinct from
/// a failed expectation, which says the code under test is wrong.
public struct TestSetupError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
