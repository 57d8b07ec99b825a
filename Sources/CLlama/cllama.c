// Resolves every function in NOTES_LLAMA_FUNCTIONS from libllama, once per process.
#include "cllama.h"
#include "cloader.h"
#include <pthread.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static notes_llama_api api;
static int loaded = 0;

#define NOTES_LLAMA_NAME(name) #name,
static const char *const symbols[] = { NOTES_LLAMA_FUNCTIONS(NOTES_LLAMA_NAME) };
#undef NOTES_LLAMA_NAME

const notes_llama_api *notes_llama_open(const char *path, char *error, size_t error_size) {
    _Static_assert(sizeof api == sizeof symbols / sizeof *symbols * sizeof(void *), "one pointer per symbol");
    pthread_mutex_lock(&lock);
    // The bare name resolves through the run path that the notes-llama pkg-config file adds.
    const char *const candidates[] = { path, "libllama.so" };
    size_t count = path ? 1 : sizeof candidates / sizeof *candidates;
    if (!loaded && notes_load_library(path ? candidates : candidates + 1, path ? 1 : count - 1,
                                      symbols, sizeof symbols / sizeof *symbols,
                                      (void **)&api, error, error_size) == 0) {
        loaded = 1;
    }
    pthread_mutex_unlock(&lock);
    return loaded ? &api : NULL;
}
