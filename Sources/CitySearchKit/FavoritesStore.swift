// FavoritesStore.swift: favorite city ids, persisted and shared between processes.
import CityIndexArtifacts
import Foundation
import Synchronization

/// A set of favorite city ids kept in a JSON file (`[707860, 2988507]`).
///
/// Guarantees:
/// - **Nothing is lost to a crash:** every change is written to a temporary file and renamed
///   over the old one, so the file is always a complete old or new version; the file keeps its
///   permissions (a 0600 list stays private) and owner, and a kill leaves no temporary file
///   (`AtomicFileWriter`). A `fileURL` that is a symbolic link stays one: the file it names is
///   read, locked (`TARGET.lock`) and replaced.
/// - **Nothing is lost to another process:** a change takes an advisory lock (`flock` on a
///   sidecar file `NAME.lock` beside it), re-reads the file, applies *the change* (add, remove,
///   toggle) to what it found, writes, and unlocks. Two processes (or two stores) changing one
///   file each keep every change the other made.
/// - **Nothing is overwritten that could not be read:** a missing file means no favorites yet;
///   a file that exists but cannot be read (permissions, a directory) or is not a JSON array of
///   ids is an error at `init` and at every change, never an empty set that the next change
///   would write over.
/// - Reads (`ids`, `contains`) see other processes' changes: they re-read the file when its
///   size, modification time or inode changed since it was last read (one `stat`).
///
/// ```swift
/// let favorites = try FavoritesStore(fileURL: documentsURL.appending(path: "favorites.json"))
/// try favorites.toggle(707860)
/// for await ids in favorites.changes() { updateStars(ids) }
/// ```
///
/// `contains`, `add`, `remove` and `toggle` are O(1) plus the `stat` (and the file's read and
/// write when it changed). Thread-safe (a `Mutex`); `changes()` streams every change to a UI.
public final class FavoritesStore: Sendable {
    public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
        /// The file exists but is not a JSON array of city ids.
        case corruptFile(path: String, reason: String)
        /// The file exists but cannot be read (`reason` from the C library).
        case unreadableFile(path: String, reason: String)
        /// A change could not be saved; the file is as it was.
        case cannotWrite(path: String, reason: String)

        /// What went wrong and what to do, in one sentence.
        public var description: String {
            switch self {
            case .corruptFile(let path, let reason):
                return "the favorites file '\(path)' is not a JSON array of city ids (\(reason)); fix or remove it"
            case .unreadableFile(let path, let reason):
                return "cannot read the favorites file '\(path)': \(reason); it was left as it is"
            case .cannotWrite(let path, let reason): return "cannot save favorites to '\(path)': \(reason)"
            }
        }
    }

    /// The favorites file.
    public let fileURL: URL
    private let lockPath: String
    private let state: Mutex<State>

    /// What the store last read or wrote, and who listens for changes.
    private struct State {
        var ids: Set<Int>
        /// The file as last read or written (nil: it did not exist).
        var identity: FileIdentity?
        /// Increases with every change seen, ours or another process's (lets searches cache derived data).
        var version = 0
        var listeners: [UUID: AsyncStream<Set<Int>>.Continuation] = [:]

        /// Records `ids` as the current favorites; a new version, told to every listener, when they differ.
        mutating func adopt(_ newIDs: Set<Int>, identity newIdentity: FileIdentity?) {
            identity = newIdentity
            guard newIDs != ids else { return }
            ids = newIDs
            version += 1
            for listener in listeners.values { listener.yield(newIDs) }
        }
    }

    /// Loads the favorites at `fileURL`; a missing file means no favorites yet.
    /// - Throws: `.unreadableFile` or `.corruptFile` when the file exists but cannot be used.
    public init(fileURL: URL) throws(StoreError) {
        // Through a symbolic link: the file it names is read, locked and replaced (the link stays).
        self.fileURL = URL(fileURLWithPath: AtomicFileWriter.followingSymbolicLinks(fileURL.path))
        lockPath = self.fileURL.path + ".lock"
        let (ids, identity) = try Self.read(fileURL)
        state = Mutex(State(ids: ids, identity: identity))
    }

    /// The favorite ids (re-read when another process changed the file; if it cannot be read
    /// now, the last ids read).
    public var ids: Set<Int> { snapshot().ids }

    /// Whether `id` is a favorite.
    public func contains(_ id: Int) -> Bool { snapshot().ids.contains(id) }

    /// The favorites now, then after every change: this store's, and another process's as soon
    /// as this store reads the file (`ids`, `contains`, a change, `reload()`). For a UI:
    /// `for await ids in store.changes() { … }`; the stream ends when the task is cancelled.
    public func changes() -> AsyncStream<Set<Int>> {
        let (stream, continuation) = AsyncStream.makeStream(of: Set<Int>.self, bufferingPolicy: .bufferingNewest(1))
        let key = UUID()
        state.withLock { state in
            state.listeners[key] = continuation
            continuation.yield(state.ids)
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.listeners.removeValue(forKey: key) }
        }
        return stream
    }

    /// Re-reads the file if another process changed it (what `ids` does before answering).
    public func reload() { _ = snapshot() }

    /// Makes `id` a favorite and saves the file (see the guarantees above).
    public func add(_ id: Int) throws(StoreError) { try update { $0.insert(id) } }

    /// Makes `id` no longer a favorite and saves the file.
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

    /// Applies `change` to the file's current ids under the cross-process lock and saves them.
    private func update(_ change: (inout Set<Int>) -> Void) throws(StoreError) {
        let result: Result<Void, StoreError> = state.withLock { state in
            do throws(StoreError) {
                let fileLock: FileLock
                do throws(FileLockError) {
                    fileLock = try FileLock(path: lockPath)
                    try fileLock.lock()
                } catch {
                    return .failure(.cannotWrite(path: fileURL.path, reason: error.reason))
                }
                defer { withExtendedLifetime(fileLock) {} }   // held until the write is done
                // Every writer holds the lock: a temporary file there now was left by one killed
                // between naming it and renaming it over the file.
                AtomicFileWriter.removeLeftovers(besides: fileURL.path)
                var (current, identity) = try Self.read(fileURL)
                state.adopt(current, identity: identity)
                change(&current)
                guard current != state.ids else { return .success(()) }
                do {
                    // Replaced atomically, its mode and owner kept, nothing left by a kill (AtomicFileWriter).
                    try AtomicFileWriter.write(Array(try JSONEncoder().encode(current.sorted())), to: fileURL.path)
                } catch {
                    return .failure(.cannotWrite(path: fileURL.path, reason: "\(error)"))
                }
                state.adopt(current, identity: FileIdentity(path: fileURL.path))
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// The ids and their version, read together, after re-reading a file changed elsewhere.
    func snapshot() -> (ids: Set<Int>, version: Int) {
        state.withLock { state in
            let identity = FileIdentity(path: fileURL.path)
            if identity != state.identity, let (ids, readIdentity) = try? Self.read(fileURL) {
                state.adopt(ids, identity: readIdentity)
            }
            return (state.ids, state.version)
        }
    }

    /// The ids in the file at `url` and its identity; empty and nil when there is no file.
    private static func read(_ url: URL) throws(StoreError) -> (Set<Int>, FileIdentity?) {
        var status = stat()
        guard stat(url.path, &status) == 0 else {
            if errno == ENOENT { return ([], nil) }
            throw .unreadableFile(path: url.path, reason: String(cString: strerror(errno)))
        }
        let identity = FileIdentity(path: url.path)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadableFile(path: url.path, reason: Self.reason(error))
        }
        do {
            return (Set(try JSONDecoder().decode([Int].self, from: data)), identity)
        } catch {
            throw .corruptFile(path: url.path, reason: "\(error)")
        }
    }

    private static func reason(_ error: any Error) -> String {
        if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError,
           underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return error.localizedDescription
    }
}

/// What tells one version of a file from another without reading it: inode, size and
/// modification time (nanoseconds). An atomic replacement changes the inode.
private struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modificationSeconds: Int
    let modificationNanoseconds: Int

    /// The identity of the file at `path`, or nil when there is none.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        #if canImport(Darwin)
        modificationSeconds = Int(status.st_mtimespec.tv_sec)
        modificationNanoseconds = Int(status.st_mtimespec.tv_nsec)
        #else
        modificationSeconds = Int(status.st_mtim.tv_sec)
        modificationNanoseconds = Int(status.st_mtim.tv_nsec)
        #endif
    }
}
