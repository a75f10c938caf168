// mapped_file_guard.c: the SIGBUS handler of mapped_file_guard.h.
//
// The registry is a fixed array of slots read by the signal handler without locks: a slot's
// `end` is published last (release) and read first (acquire), so the handler never sees a
// half-written slot. Only async-signal-safe work happens in the handler: atomic loads and
// stores, mmap, sigaction and a call of the previous handler.
#define _GNU_SOURCE
#include "mapped_file_guard.h"

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

static void call_previous(int signal_number, siginfo_t *info, void *context) {
    if (previous_action.sa_flags & SA_SIGINFO) {
        if (previous_action.sa_sigaction != NULL) {
            previous_action.sa_sigaction(signal_number, info, context);
            return;
        }
    } else if (previous_action.sa_handler == SIG_IGN) {
        return;
    } else if (previous_action.sa_handler != SIG_DFL && previous_action.sa_handler != NULL) {
        previous_action.sa_handler(signal_number);
        return;
    }
    // The default action: restore it and return, so the faulting read runs again and the
    // process ends as it would have without this handler.
    struct sigaction default_action;
    memset(&default_action, 0, sizeof default_action);
    default_action.sa_handler = SIG_DFL;
    sigemptyset(&default_action.sa_mask);
    sigaction(signal_number, &default_action, NULL);
}

static void handle_bus_error(int signal_number, siginfo_t *info, void *context) {
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
        return;
    }
    call_previous(signal_number, info, context);
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
