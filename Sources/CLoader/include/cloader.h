// Opens a shared library on first use and fills a table of its functions, for the libgit2 and
// llama.cpp shims: loading them lazily keeps `notes add` and `notes search` fast to start.
#ifndef NOTES_CLOADER_H
#define NOTES_CLOADER_H

#include <stddef.h>

/// Tries each candidate file name with dlopen until one opens, then resolves `symbol_count`
/// names into `table` (an array of function pointers, in the same order). Returns 0 on success;
/// on failure returns -1, leaves `table` untouched and writes a message into `error`.
int notes_load_library(const char *const *candidates, size_t candidate_count,
                       const char *const *symbols, size_t symbol_count,
                       void **table, char *error, size_t error_size);

#endif
