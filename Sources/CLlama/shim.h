// llama.cpp, opened with dlopen on first use. The header comes from the pinned install through
// the notes-llama pkg-config file, whose Libs has no -l: the library is never linked, so
// commands that do not touch the model do not pay for loading it (and ggml, OpenMP) at start-up.
// The table's field types come from llama.h itself (__typeof__), so a signature cannot drift.
#ifndef NOTES_CLLAMA_SHIM_H
#define NOTES_CLLAMA_SHIM_H

#include <pthread.h>
#include <stddef.h>
#include <llama.h>
#include "../CLoader/include/cloader.h"

// Every llama.cpp function the AI module calls. Add a name here to make it callable.
#define NOTES_LLAMA_FUNCTIONS(X) \
    X(llama_backend_init) \
    X(llama_log_set) \
    X(llama_model_default_params) \
    X(llama_context_default_params) \
    X(llama_model_load_from_file) \
    X(llama_model_free) \
    X(llama_init_from_model) \
    X(llama_free) \
    X(llama_model_get_vocab) \
    X(llama_vocab_n_tokens) \
    X(llama_vocab_eos) \
    X(llama_vocab_bos) \
    X(llama_vocab_is_eog) \
    X(llama_vocab_get_add_bos) \
    X(llama_token_to_piece) \
    X(llama_tokenize) \
    X(llama_model_chat_template) \
    X(llama_chat_apply_template) \
    X(llama_model_n_params) \
    X(llama_model_size) \
    X(llama_model_n_ctx_train) \
    X(llama_model_desc) \
    X(llama_model_meta_val_str) \
    X(llama_n_ctx) \
    X(llama_batch_init) \
    X(llama_batch_free) \
    X(llama_decode) \
    X(llama_get_logits_ith) \
    X(llama_get_memory) \
    X(llama_memory_clear) \
    X(llama_memory_seq_rm) \
    X(llama_memory_seq_cp) \
    X(llama_state_seq_get_size) \
    X(llama_state_seq_get_data) \
    X(llama_state_seq_set_data) \
    X(llama_set_n_threads) \
    X(llama_get_embeddings_seq) \
    X(llama_model_n_embd) \
    X(llama_pooling_type) \
    X(llama_vocab_sep) \
    X(llama_vocab_type)

typedef struct notes_llama_api {
#define NOTES_LLAMA_FIELD(name) __typeof__(&name) _Nonnull name;
    NOTES_LLAMA_FUNCTIONS(NOTES_LLAMA_FIELD)
#undef NOTES_LLAMA_FIELD
} notes_llama_api;

/// Opens the library at `path` (a file, or a bare name searched the usual dlopen way) once per
/// process and returns its function table, or NULL with a message in `error`. After one
/// success every later call returns the same table, whatever the path.
static inline const notes_llama_api *_Nullable notes_llama_open(const char *_Nonnull path, char *_Nonnull error, size_t error_size) {
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static notes_llama_api api;
    static int loaded = 0;
#define NOTES_LLAMA_NAME(name) #name,
    static const char *const symbols[] = { NOTES_LLAMA_FUNCTIONS(NOTES_LLAMA_NAME) };
#undef NOTES_LLAMA_NAME
    _Static_assert(sizeof api == sizeof symbols / sizeof *symbols * sizeof(void *), "one pointer per symbol");
    pthread_mutex_lock(&lock);
    if (!loaded && notes_load_library(&path, 1, symbols, sizeof symbols / sizeof *symbols, (void **)&api, error, error_size) == 0) {
        loaded = 1;
    }
    pthread_mutex_unlock(&lock);
    return loaded ? &api : NULL;
}

#endif
