// dlopen/dlsym behind one call; the caller keeps the handle for the life of the process.
#include "cloader.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int notes_load_library(const char *const *candidates, size_t candidate_count,
                       const char *const *symbols, size_t symbol_count,
                       void **table, char *error, size_t error_size) {
    void *handle = NULL;
    const char *reason = "no candidate library name";
    for (size_t i = 0; i < candidate_count && !handle; i++) {
        if (!candidates[i]) continue;
        // A bare name is searched in the executable's run path, which the build sets.
        handle = dlopen(candidates[i], RTLD_NOW | RTLD_LOCAL);
        if (!handle) reason = dlerror();
    }
    if (!handle) {
        snprintf(error, error_size, "%s", reason);
        return -1;
    }
    void **resolved = calloc(symbol_count, sizeof *resolved);
    if (!resolved) {
        snprintf(error, error_size, "out of memory");
        dlclose(handle);
        return -1;
    }
    for (size_t i = 0; i < symbol_count; i++) {
        resolved[i] = dlsym(handle, symbols[i]);
        if (!resolved[i]) {
            snprintf(error, error_size, "the library has no symbol %s (an unsupported version?)", symbols[i]);
            free(resolved);
            dlclose(handle);
            return -1;
        }
    }
    memcpy(table, resolved, symbol_count * sizeof *resolved);
    free(resolved);
    return 0;
}
