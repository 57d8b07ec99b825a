// Resolves every function in NOTES_SODIUM_FUNCTIONS from libsodium, once per process.
#include "csodium.h"
#include "cloader.h"
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static notes_sodium_api api;
static int loaded = 0;

#define NOTES_SODIUM_NAME(name) #name,
static const char *const symbols[] = { NOTES_SODIUM_FUNCTIONS(NOTES_SODIUM_NAME) };
#undef NOTES_SODIUM_NAME

const notes_sodium_api *notes_sodium_open(char *error, size_t error_size) {
    _Static_assert(sizeof api == sizeof symbols / sizeof *symbols * sizeof(void *), "one pointer per symbol");
    pthread_mutex_lock(&lock);
    // libsodium-dev installs the unversioned name; the runtime package alone has the soname.
    const char *const candidates[] = { "libsodium.so", "libsodium.so.23" };
    if (!loaded && notes_load_library(candidates, 2, symbols, sizeof symbols / sizeof *symbols,
                                      (void **)&api, error, error_size) == 0) {
        // "sodium_init() returns 0 on success, -1 on failure, and 1 if the library had already
        // been initialized."
        if (api.sodium_init() < 0) {
            snprintf(error, error_size, "sodium_init failed");
        } else {
            loaded = 1;
        }
    }
    pthread_mutex_unlock(&lock);
    return loaded ? &api : NULL;
}
