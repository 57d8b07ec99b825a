// libsodium, opened with dlopen on first use (only syncs with an encrypted remote need it).
// The table's field types come from sodium.h itself (__typeof__), as in CGit2.
#ifndef NOTES_CSODIUM_H
#define NOTES_CSODIUM_H

#include <stddef.h>
#include <sodium.h>

// Every libsodium function the Sync module calls. Add a name here to make it callable.
#define NOTES_SODIUM_FUNCTIONS(X) \
    X(sodium_init) \
    X(sodium_memzero) \
    X(randombytes_buf) \
    X(crypto_pwhash) \
    X(crypto_generichash) \
    X(crypto_aead_xchacha20poly1305_ietf_encrypt) \
    X(crypto_aead_xchacha20poly1305_ietf_decrypt)

typedef struct notes_sodium_api {
#define NOTES_SODIUM_FIELD(name) __typeof__(&name) _Nonnull name;
    NOTES_SODIUM_FUNCTIONS(NOTES_SODIUM_FIELD)
#undef NOTES_SODIUM_FIELD
} notes_sodium_api;

/// Opens libsodium once per process, runs sodium_init, and returns its function table, or
/// NULL with a message in `error`.
const notes_sodium_api *_Nullable notes_sodium_open(char *_Nonnull error, size_t error_size);

#endif
