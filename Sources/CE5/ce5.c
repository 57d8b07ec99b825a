// Resolves the embedding engine's functions, once per process.
#include "ce5.h"
#include "cloader.h"
#include <pthread.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static notes_e5_api api;
static int loaded = 0;

static const char *const symbols[] = { "e5_load", "e5_free", "e5_dim", "e5_token_count", "e5_embed", "e5_embed_batch" };

const notes_e5_api *notes_e5_open(const char *path, char *error, size_t error_size) {
    _Static_assert(sizeof api == sizeof symbols / sizeof *symbols * sizeof(void *), "one pointer per symbol");
    pthread_mutex_lock(&lock);
    const char *const candidates[] = { path };
    if (!loaded && notes_load_library(candidates, 1, symbols, sizeof symbols / sizeof *symbols, (void **)&api, error, error_size) == 0) {
        loaded = 1;
    }
    pthread_mutex_unlock(&lock);
    return loaded ? &api : NULL;
}
