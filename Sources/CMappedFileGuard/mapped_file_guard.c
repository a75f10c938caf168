// mapped_file_guard.c: the SIGBUS handler of mapped_file_guard.h.
//
// The registry is a fixed array of slots read by the signal handler without locks: a slot's
// `end` is published last (release) and read first (acquire), so the handler never sees a
// half-written slot. Only async-signal-safe work happens in the handler: atomic loads and
// stores, mmap, sigaction, raise and a call of the previous handler.
#define _GNU_SOURCE
#include "mapped_file_guard.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SLOT_COUNT 1024

struct slot {
    _Atomic uintptr_t base;
    _Atomic uintptr_t end;      // 0: the slot is free
    _Atomic int faulted;
};

static struct slot slots[SLOT_COUNT];
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sigaction previous_action;
static int handler_installed = 0;

/// Whether the disposition before the guard was to ignore SIGBUS, or the default action.
static int previous_is(void (*disposition)(int)) {
    return !(previous_action.sa_flags & SA_SIGINFO) && previous_action.sa_handler == disposition;
}

static void set_default_action(int signal_number) {
    struct sigaction default_action;
    memset(&default_action, 0, sizeof default_action);
    default_action.sa_handler = SIG_DFL;
    sigemptyset(&default_action.sa_mask);
    sigaction(signal_number, &default_action, NULL);
}

static void handle_bus_error(int signal_number, siginfo_t *info, void *context);

/// Installs the guard again when the disposition is no longer it (async-signal-safe: sigaction).
static void reinstall_guard(int signal_number) {
    struct sigaction current;
    if (sigaction(signal_number, NULL, &current) != 0) return;
    if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == handle_bus_error) return;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = handle_bus_error;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    sigaction(signal_number, &action, NULL);
}

/// Does with a SIGBUS the guard does not own what the process would have done without it.
///
/// - A fault (the kernel's, `si_code` > 0) repeats when the handler returns. Under the default
///   action, or when SIGBUS was ignored (the kernel never lets a fault be ignored: it ends the
///   process), the default action is restored first, so the repeat ends the process by SIGBUS.
/// - A sent SIGBUS (`kill`, `tkill`, `sigqueue`: `si_code` <= 0) happens once. Ignored, nothing
///   happens and the guard stays; under the default action it is raised again with the default
///   restored, delivered as this handler returns: the process ends by SIGBUS.
/// - Otherwise the earlier handler (the Swift runtime's crash handler, an app's) is called as
///   the kernel would have called it, and the guard stays installed. For a sent SIGBUS that
///   handler may replace the disposition (Swift's backtracer prints its report and restores the
///   default, expecting a fault to repeat): a sent signal does not repeat, so the guard puts
///   itself back, with that handler still the one it passes on to. (For a fault it does not:
///   the repeat must reach what the earlier handler chose, or it would loop.)
static void pass_on(int signal_number, siginfo_t *info, void *context) {
    int is_fault = info != NULL && info->si_code > 0;
    int ignored = previous_is(SIG_IGN), is_default = previous_is(SIG_DFL);
    if (is_fault && (ignored || is_default)) {
        set_default_action(signal_number);
        return;
    }
    if (ignored) return;
    if (is_default) {
        set_default_action(signal_number);
        raise(signal_number);
        return;
    }
    if (previous_action.sa_flags & SA_SIGINFO) {
        previous_action.sa_sigaction(signal_number, info, context);
    } else {
        previous_action.sa_handler(signal_number);
    }
    if (!is_fault) reinstall_guard(signal_number);
}

static void handle_bus_error(int signal_number, siginfo_t *info, void *context) {
    int saved_errno = errno;
    // Only a fault on a missing page of a file (BUS_ADRERR) inside a registered mapping is the
    // guard's; a sent signal's `si_addr` is not an address at all.
    if (info != NULL && info->si_code == BUS_ADRERR) {
        uintptr_t address = (uintptr_t)info->si_addr;
        uintptr_t page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
        for (int index = 0; index < SLOT_COUNT; index++) {
            uintptr_t end = atomic_load_explicit(&slots[index].end, memory_order_acquire);
            if (end == 0) continue;
            uintptr_t base = atomic_load_explicit(&slots[index].base, memory_order_relaxed);
            if (address < base || address >= end) continue;
            uintptr_t page = address & ~(page_size - 1);
            if (page < base) page = base;  // base is page-aligned (mmap's result); kept for safety
            void *replaced = mmap((void *)page, end - page, PROT_READ,
                                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
            if (replaced == MAP_FAILED) break;
            atomic_store_explicit(&slots[index].faulted, 1, memory_order_release);
            errno = saved_errno;
            return;
        }
    }
    pass_on(signal_number, info, context);
    errno = saved_errno;
}

static int install_handler_locked(void) {
    if (handler_installed) return 1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = handle_bus_error;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGBUS, &action, &previous_action) != 0) return 0;
    handler_installed = 1;
    return 1;
}

int cityindex_guard_register(const void *base, size_t length) {
    if (length == 0) return -1;
    pthread_mutex_lock(&registry_lock);
    int result = -1;
    if (install_handler_locked()) {
        for (int index = 0; index < SLOT_COUNT; index++) {
            if (atomic_load_explicit(&slots[index].end, memory_order_relaxed) != 0) continue;
            atomic_store_explicit(&slots[index].faulted, 0, memory_order_relaxed);
            atomic_store_explicit(&slots[index].base, (uintptr_t)base, memory_order_relaxed);
            atomic_store_explicit(&slots[index].end, (uintptr_t)base + length, memory_order_release);
            result = index;
            break;
        }
    }
    pthread_mutex_unlock(&registry_lock);
    return result;
}

void cityindex_guard_unregister(int slot) {
    if (slot < 0 || slot >= SLOT_COUNT) return;
    pthread_mutex_lock(&registry_lock);
    atomic_store_explicit(&slots[slot].end, 0, memory_order_release);
    pthread_mutex_unlock(&registry_lock);
}

int cityindex_guard_has_faulted(int slot) {
    if (slot < 0 || slot >= SLOT_COUNT) return 0;
    return atomic_load_explicit(&slots[slot].faulted, memory_order_acquire);
}

int cityindex_guard_capacity(void) { return SLOT_COUNT; }
