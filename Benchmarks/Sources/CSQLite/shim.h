#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro cast of -1 that does not import into Swift.
static inline sqlite3_destructor_type cityindex_sqlite_transient(void) { return SQLITE_TRANSIENT; }
