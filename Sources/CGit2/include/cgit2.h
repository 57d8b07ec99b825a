// libgit2, opened with dlopen on first use. The table's field types come from git2.h itself
// (__typeof__), so a signature can never drift from the installed header.
#ifndef NOTES_CGIT2_H
#define NOTES_CGIT2_H

#include <stddef.h>
#include <git2.h>

// Every libgit2 function the Sync module calls. Add a name here to make it callable.
#define NOTES_GIT_FUNCTIONS(X) \
    X(git_libgit2_init) \
    X(git_libgit2_shutdown) \
    X(git_libgit2_version) \
    X(git_error_last) \
    X(git_repository_open) \
    X(git_repository_init) \
    X(git_repository_free)

typedef struct notes_git_api {
#define NOTES_GIT_FIELD(name) __typeof__(&name) _Nonnull name;
    NOTES_GIT_FUNCTIONS(NOTES_GIT_FIELD)
#undef NOTES_GIT_FIELD
} notes_git_api;

/// Opens libgit2 once per process and returns its function table, or NULL with a message in
/// `error`. `path` may name the library file; NULL tries the distribution's sonames.
const notes_git_api *_Nullable notes_git_open(const char *_Nullable path, char *_Nonnull error, size_t error_size);

#endif
