// Resolves every function in NOTES_GIT_FUNCTIONS from libgit2, once per process.
#include "cgit2.h"
#include "cloader.h"
#include <pthread.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static notes_git_api api;
static int loaded = 0;

#define NOTES_GIT_NAME(name) #name,
static const char *const symbols[] = { NOTES_GIT_FUNCTIONS(NOTES_GIT_NAME) };
#undef NOTES_GIT_NAME

const notes_git_api *notes_git_open(const char *path, char *error, size_t error_size) {
    _Static_assert(sizeof api == sizeof symbols / sizeof *symbols * sizeof(void *), "one pointer per symbol");
    pthread_mutex_lock(&lock);
    // libgit2-dev installs the unversioned name; the runtime package alone has the soname.
    const char *const candidates[] = { path, "libgit2.so", "libgit2.so.1.5" };
    size_t count = path ? 1 : sizeof candidates / sizeof *candidates;
    if (!loaded && notes_load_library(path ? candidates : candidates + 1, path ? 1 : count - 1,
                                      symbols, sizeof symbols / sizeof *symbols,
                                      (void **)&api, error, error_size) == 0) {
        loaded = 1;
    }
    pthread_mutex_unlock(&lock);
    return loaded ? &api : NULL;
}

int notes_git_enable_fsync(const notes_git_api *api) {
    return api->git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR, 1);
}
