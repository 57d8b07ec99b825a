// The multilingual embedding engine (multilingual-e5-small, 4-bit, in C), opened with dlopen on
// first use: set-up builds it as $NOTES_DEPS/e5/libe5.so from the sources its package ships.
// The declarations below are the engine's C interface as its header documents it; the engine's
// own header is not in this repository, so the types are written here.
#ifndef NOTES_CE5_H
#define NOTES_CE5_H

#include <stddef.h>

typedef struct notes_e5_model notes_e5_model;

typedef struct notes_e5_api {
    /// Maps the packed model file; NULL on error.
    notes_e5_model *_Nullable (*_Nonnull e5_load)(const char *_Nonnull path);
    void (*_Nonnull e5_free)(notes_e5_model *_Nullable model);
    /// 384 for multilingual-e5-small.
    int (*_Nonnull e5_dim)(const notes_e5_model *_Nonnull model);
    /// Tokens of `text` with the query or passage prefix and the special tokens.
    int (*_Nonnull e5_token_count)(notes_e5_model *_Nonnull model, const char *_Nonnull text, int is_query);
    /// Unit-length vector of one text ("query: " prefix when `is_query`, else "passage: ").
    int (*_Nonnull e5_embed)(notes_e5_model *_Nonnull model, const char *_Nonnull text, int is_query, float *_Nonnull out);
    /// `count` texts at once, row after row; faster than one at a time.
    int (*_Nonnull e5_embed_batch)(notes_e5_model *_Nonnull model, const char *_Nonnull const *_Nonnull texts, int count,
                                   int is_query, float *_Nonnull out);
} notes_e5_api;

/// Opens the library at `path` once per process (a later call with any path returns the same
/// table) and returns its function table, or NULL with a message in `error`.
const notes_e5_api *_Nullable notes_e5_open(const char *_Nonnull path, char *_Nonnull error, size_t error_size);

#endif
