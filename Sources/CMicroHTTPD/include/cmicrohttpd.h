// libmicrohttpd, opened with dlopen on first use (only `notes serve` needs it). The table's field
// types come from microhttpd.h itself (__typeof__), as in CGit2 and CSodium. libmicrohttpd's
// calls are variadic and its body arrives in pieces, so this shim gathers a whole request and
// hands it to one Swift callback, which answers it at once: with a whole body, or with a reader
// that gives the body as it is made (an answer being generated).
#ifndef NOTES_CMICROHTTPD_H
#define NOTES_CMICROHTTPD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct notes_http_pair {
    const char *_Nonnull key;
    const char *_Nonnull value;
} notes_http_pair;

/// A whole request: the headers, the query's arguments (decoded by libmicrohttpd) and the body,
/// at most the server's `max_body` bytes (`body_too_large` set when there was more).
typedef struct notes_http_request {
    const char *_Nonnull method;
    const char *_Nonnull path;
    const notes_http_pair *_Nullable headers;
    size_t header_count;
    const notes_http_pair *_Nullable arguments;
    size_t argument_count;
    const char *_Nullable body;
    size_t body_size;
    int body_too_large;
} notes_http_request;

/// Gives the next bytes of a streamed body: at most `size` into `buffer`, waiting for them when
/// none are ready yet (each connection has its own thread); NOTES_HTTP_END when the body is
/// complete, NOTES_HTTP_ABORT to drop the connection.
typedef ssize_t (*notes_http_reader)(void *_Nullable stream, uint64_t position, char *_Nonnull buffer, size_t size);
#define NOTES_HTTP_END ((ssize_t)-1)
#define NOTES_HTTP_ABORT ((ssize_t)-2)

typedef struct notes_http_response {
    unsigned int status;
    const notes_http_pair *_Nullable headers;
    size_t header_count;
    /// The whole body, or (when `reader` is set) nothing: the reader gives it, chunked.
    const void *_Nullable body;
    size_t body_size;
    notes_http_reader _Nullable reader;
    void *_Nullable stream;
    /// Called once when the connection is done with `stream` (sent, or the client went away).
    void (*_Nullable release)(void *_Nullable stream);
} notes_http_response;

/// Answers `request` by calling `respond(responder, &response)` once before it returns (the
/// response is copied); a handler that does not answer gets a 500.
typedef void (*notes_http_handler)(void *_Nullable context, const notes_http_request *_Nonnull request,
                                   void (*_Nonnull respond)(void *_Nonnull responder, const notes_http_response *_Nonnull response),
                                   void *_Nonnull responder);

typedef struct notes_http_server notes_http_server;

/// Opens libmicrohttpd once per process; 0 on success, else -1 with a message in `error`.
int notes_http_open(char *_Nonnull error, size_t error_size);

/// Serves on the loopback address only (127.0.0.1, or ::1 when `ipv6`), on `port` (0: any free
/// port), each connection on a thread of its own. NULL with a message in `error`
/// when it cannot (port taken, no IPv6, library not opened).
notes_http_server *_Nullable notes_http_start(int ipv6, uint16_t port, size_t max_body, notes_http_handler _Nonnull handler,
                                              void *_Nullable context, char *_Nonnull error, size_t error_size);

/// The port the server listens on (the one chosen when started with 0).
uint16_t notes_http_port(const notes_http_server *_Nonnull server);

/// Stops listening, waits for the requests being answered (a streamed body must end first), and
/// frees the server.
void notes_http_stop(notes_http_server *_Nonnull server);

#endif
