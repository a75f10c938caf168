// Exports.swift: what an app that imports CitySearchKit sees of the reader.

/// The search-box layer hands out the reader's types (`CityIndex`, `City`, `CityMatch`,
/// `Coordinate`, `Region`): an app that imports CitySearchKit uses them without importing
/// CityIndex too.
@_exported import CityIndex
