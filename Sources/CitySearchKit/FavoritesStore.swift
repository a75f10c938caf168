// FavoritesStore.swift: favorite city ids, persisted.
import Foundation

/// A set of favorite city ids kept in a JSON file (`[707860, 2988507]`).
///
/// `contains`, `add`, `remove` and `toggle` are O(1) (plus the write). Every change is written
/// atomically (a temporary file renamed over the old one), so the file survives crashes and
/// restarts; a file that is not a JSON array of ids is reported, never silently dropped.
/// Thread-safe.
public final class FavoritesStore: @unchecked Sendable {
    public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
        case corruptFile(path: String, reason: String)
        case cannotWrite(path: String, reason: String)

        public var description: String {
            switch self {
            case .corruptFile(let path, let reason):
                return "the favorites file '\(path)' is not a JSON array of city ids (\(reason)); fix or remove it"
            case .cannotWrite(let path, let reason): return "cannot save favorites to '\(path)': \(reason)"
            }
        }
    }

    public let fileURL: URL
    private let lock = NSLock()
    private var storedIDs: Set<Int>
    /// Increases with every change (lets searches cache derived data).
    private(set) var version = 0

    /// Loads the favorites at `fileURL`; a missing file means no favorites yet.
    public init(fileURL: URL) throws(StoreError) {
        self.fileURL = fileURL
        guard let data = try? Data(contentsOf: fileURL) else {
            storedIDs = []
            return
        }
        do {
            storedIDs = Set(try JSONDecoder().decode([Int].self, from: data))
        } catch {
            throw .corruptFile(path: fileURL.path, reason: "\(error)")
        }
    }

    /// The favorite ids.
    public var ids: Set<Int> { lock.withLock { storedIDs } }

    public func contains(_ id: Int) -> Bool { lock.withLock { storedIDs.contains(id) } }

    public func add(_ id: Int) throws(StoreError) { try update { $0.insert(id) } }

    public func remove(_ id: Int) throws(StoreError) { try update { $0.remove(id) } }

    /// Adds `id` when absent, removes it when present; returns whether it is now a favorite.
    @discardableResult
    public func toggle(_ id: Int) throws(StoreError) -> Bool {
        var isFavorite = false
        try update { ids in
            if ids.remove(id) == nil {
                ids.insert(id)
                isFavorite = true
            }
        }
        return isFavorite
    }

    private func update(_ change: (inout Set<Int>) -> Void) throws(StoreError) {
        let result: Result<Void, StoreError> = lock.withLock {
            var next = storedIDs
            change(&next)
            guard next != storedIDs else { return .success(()) }
            do {
                let data = try JSONEncoder().encode(next.sorted())
                try data.write(to: fileURL, options: .atomic)
            } catch {
                return .failure(.cannotWrite(path: fileURL.path, reason: "\(error)"))
            }
            storedIDs = next
            version += 1
            return .success(())
        }
        try result.get()
    }

    /// The ids and their version, read together.
    func snapshot() -> (ids: Set<Int>, version: Int) { lock.withLock { (storedIDs, version) } }
}
