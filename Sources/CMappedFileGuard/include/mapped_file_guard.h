// mapped_file_guard.h: keeps a memory-mapped file that shrinks underneath from killing the process.
#ifndef CITYINDEX_MAPPED_FILE_GUARD_H
#define CITYINDEX_MAPPED_FILE_GUARD_H

#include <stddef.h>

/// Registers the read-only mapping [base, base + length) and, on first use, installs a SIGBUS
/// handler for the process. When a read of a registered mapping faults (the file was truncated
/// or shrunk by a rewrite in place, so its pages no longer exist), the handler maps zero-filled
/// anonymous pages from the faulting page to the end of the mapping, marks the registration as
/// faulted, and lets the read resume: it reads zeros instead of killing the process. It owns
/// only such faults (`BUS_ADRERR` inside a registered mapping); any other SIGBUS gets what the
/// process would have done without it: the default action (which ends the process, also for a
/// fault when SIGBUS was ignored), nothing for a sent signal the process ignores, or the
/// handler installed before, called as the kernel would call it.
///
/// Returns the registration's slot (for the functions below), or -1 when all slots are taken
/// or the handler cannot be installed (the caller must then not map the file).
int cityindex_guard_register(const void *base, size_t length);

/// Ends registration `slot` (before the mapping is unmapped).
void cityindex_guard_unregister(int slot);

/// Whether a read of registration `slot` has faulted since it was registered.
int cityindex_guard_has_faulted(int slot);

/// How many registrations there can be at once.
int cityindex_guard_capacity(void);

#endif
