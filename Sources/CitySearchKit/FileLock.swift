// FileLock.swift: an exclusive advisory lock between processes.
import Foundation

/// An exclusive `flock(2)` on a lock file, held until the value is released or deinitialized
/// (or the process ends: the kernel releases it, so a killed holder never blocks others).
/// Advisory: it orders the processes that take it; it does not stop others from writing.
final class FileLock {
    private let descriptor: Int32

    /// Opens (creating it when missing) the lock file at `path`, without locking it yet.
    /// - Throws: the C library's reason.
    init(path: String) throws(FileLockError) {
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileLockError(reason: "cannot open the lock file '\(path)': \(String(cString: strerror(errno)))") }
    }

    deinit { close(descriptor) }   // closing releases the lock

    /// Waits until the lock is held.
    func lock() throws(FileLockError) {
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw FileLockError(reason: "cannot lock: \(String(cString: strerror(errno)))") }
        }
    }

    /// Takes the lock if no one holds it; returns whether it did.
    func tryLock() throws(FileLockError) -> Bool {
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno == EWOULDBLOCK { return false }
            guard errno == EINTR else { throw FileLockError(reason: "cannot lock: \(String(cString: strerror(errno)))") }
        }
        return true
    }
}

struct FileLockError: Error {
    let reason: String
}
