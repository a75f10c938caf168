#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer on `LLVMFuzzerTestOneInput` (defined in Swift with @_cdecl) with the
/// process's command-line arguments. Needs the fuzzer runtime (-sanitize=fuzzer).
int cityindex_run_fuzzer(int argc, char **argv);
