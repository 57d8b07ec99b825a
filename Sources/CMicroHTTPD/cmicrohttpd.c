// Gathers libmicrohttpd's pieces of a request into one notes_http_request (see cmicrohttpd.h).
#include "cmicrohttpd.h"
#include "cloader.h"
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Every libmicrohttpd function this shim calls.
#define NOTES_MHD_FUNCTIONS(X) \
    X(MHD_start_daemon) \
    X(MHD_stop_daemon) \
    X(MHD_get_daemon_info) \
    X(MHD_get_connection_values) \
    X(MHD_create_response_from_buffer) \
    X(MHD_create_response_from_callback) \
    X(MHD_add_response_header) \
    X(MHD_queue_response) \
    X(MHD_set_connection_option) \
    X(MHD_destroy_response)

typedef struct notes_mhd_api {
#define NOTES_MHD_FIELD(name) __typeof__(&name) name;
    NOTES_MHD_FUNCTIONS(NOTES_MHD_FIELD)
#undef NOTES_MHD_FIELD
} notes_mhd_api;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static notes_mhd_api api;
static int loaded = 0;

#define NOTES_MHD_NAME(name) #name,
static const char *const symbols[] = { NOTES_MHD_FUNCTIONS(NOTES_MHD_NAME) };
#undef NOTES_MHD_NAME

int notes_http_open(char *error, size_t error_size) {
    _Static_assert(sizeof api == sizeof symbols / sizeof *symbols * sizeof(void *), "one pointer per symbol");
    pthread_mutex_lock(&lock);
    // libmicrohttpd-dev installs the unversioned name; the runtime package alone has the soname.
    const char *const candidates[] = { "libmicrohttpd.so", "libmicrohttpd.so.12" };
    if (!loaded && notes_load_library(candidates, 2, symbols, sizeof symbols / sizeof *symbols, (void **)&api, error, error_size) == 0) {
        loaded = 1;
    }
    pthread_mutex_unlock(&lock);
    return loaded ? 0 : -1;
}

struct notes_http_server {
    struct MHD_Daemon *daemon;
    size_t max_body;
    notes_http_handler handler;
    void *context;
};

/// One request's state between libmicrohttpd's calls: the body so far.
typedef struct request_state {
    char *body;
    size_t size;
    int too_large;
} request_state;

typedef struct pairs {
    notes_http_pair *items;
    size_t count, capacity;
} pairs;

static enum MHD_Result collect(void *cls, enum MHD_ValueKind kind, const char *key, const char *value) {
    (void)kind;
    pairs *list = cls;
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? list->capacity * 2 : 16;
        notes_http_pair *items = realloc(list->items, capacity * sizeof *items);
        if (!items) return MHD_NO;
        list->items = items;
        list->capacity = capacity;
    }
    list->items[list->count++] = (notes_http_pair){ key ? key : "", value ? value : "" };
    return MHD_YES;
}

typedef struct responder {
    struct MHD_Connection *connection;
    enum MHD_Result result;
    int answered;
} responder;

static void respond(void *cls, const notes_http_response *response) {
    responder *to = cls;
    if (to->answered) {
        if (response->reader && response->release) response->release(response->stream);
        return;
    }
    to->answered = 1;
    // A streamed body has no length: libmicrohttpd sends it chunked, a piece per read.
    struct MHD_Response *reply = response->reader
        ? api.MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, response->reader, response->stream, response->release)
        : api.MHD_create_response_from_buffer(response->body_size, (void *)response->body, MHD_RESPMEM_MUST_COPY);
    if (!reply) {
        if (response->reader && response->release) response->release(response->stream);
        to->result = MHD_NO;
        return;
    }
    for (size_t index = 0; index < response->header_count; index++) {
        api.MHD_add_response_header(reply, response->headers[index].key, response->headers[index].value);
    }
    // A streamed body may be silent for as long as the model thinks: no idle timeout for it
    // (it ends with the stream, or when the client goes away).
    if (response->reader) api.MHD_set_connection_option(to->connection, MHD_CONNECTION_OPTION_TIMEOUT, (unsigned int)0);
    to->result = api.MHD_queue_response(to->connection, response->status, reply);
    api.MHD_destroy_response(reply);
}

static enum MHD_Result access_handler(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                                      const char *version, const char *upload_data, size_t *upload_data_size, void **con_cls) {
    (void)version;
    notes_http_server *server = cls;
    request_state *state = *con_cls;
    if (!state) {
        // The first call has the headers only.
        state = calloc(1, sizeof *state);
        if (!state) return MHD_NO;
        *con_cls = state;
        return MHD_YES;
    }
    if (*upload_data_size > 0) {
        // A body past the limit is read and dropped, so that the client gets its 413.
        size_t piece = *upload_data_size;
        if (!state->too_large && state->size + piece <= server->max_body) {
            char *body = realloc(state->body, state->size + piece);
            if (!body) return MHD_NO;
            memcpy(body + state->size, upload_data, piece);
            state->body = body;
            state->size += piece;
        } else {
            state->too_large = 1;
        }
        *upload_data_size = 0;
        return MHD_YES;
    }
    pairs headers = { 0 }, arguments = { 0 };
    api.MHD_get_connection_values(connection, MHD_HEADER_KIND, collect, &headers);
    api.MHD_get_connection_values(connection, MHD_GET_ARGUMENT_KIND, collect, &arguments);
    notes_http_request request = {
        .method = method, .path = url,
        .headers = headers.items, .header_count = headers.count,
        .arguments = arguments.items, .argument_count = arguments.count,
        .body = state->body, .body_size = state->size, .body_too_large = state->too_large,
    };
    responder to = { connection, MHD_NO, 0 };
    server->handler(server->context, &request, respond, &to);
    if (!to.answered) {
        static const char failed[] = "internal error";
        notes_http_response response = { 500, NULL, 0, failed, sizeof failed - 1 };
        respond(&to, &response);
    }
    free(headers.items);
    free(arguments.items);
    return to.result;
}

static void completed(void *cls, struct MHD_Connection *connection, void **con_cls, enum MHD_RequestTerminationCode code) {
    (void)cls; (void)connection; (void)code;
    request_state *state = *con_cls;
    if (state) {
        free(state->body);
        free(state);
        *con_cls = NULL;
    }
}

notes_http_server *notes_http_start(int ipv6, uint16_t port, size_t max_body, notes_http_handler handler, void *context,
                                    char *error, size_t error_size) {
    if (!loaded) { snprintf(error, error_size, "libmicrohttpd is not opened"); return NULL; }
    notes_http_server *server = calloc(1, sizeof *server);
    if (!server) { snprintf(error, error_size, "out of memory"); return NULL; }
    server->max_body = max_body;
    server->handler = handler;
    server->context = context;
    struct sockaddr_in v4 = { .sin_family = AF_INET, .sin_port = htons(port), .sin_addr = { htonl(INADDR_LOOPBACK) } };
    struct sockaddr_in6 v6 = { .sin6_family = AF_INET6, .sin6_port = htons(port), .sin6_addr = IN6ADDR_LOOPBACK_INIT };
    // A thread per connection: a streamed answer's reader waits for the model's next words on
    // its own thread while other pages are served (the Swift side serialises the notebook).
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | (ipv6 ? MHD_USE_IPv6 : 0);
    server->daemon = api.MHD_start_daemon(flags, port, NULL, NULL, access_handler, server,
                                          MHD_OPTION_SOCK_ADDR, ipv6 ? (struct sockaddr *)&v6 : (struct sockaddr *)&v4,
                                          MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
                                          MHD_OPTION_CONNECTION_LIMIT, (unsigned int)64,
                                          MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)30,
                                          MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024),
                                          MHD_OPTION_END);
    if (!server->daemon) {
        snprintf(error, error_size, "cannot listen on %s port %u (in use, or no such address)", ipv6 ? "[::1]" : "127.0.0.1", (unsigned)port);
        free(server);
        return NULL;
    }
    return server;
}

uint16_t notes_http_port(const notes_http_server *server) {
    const union MHD_DaemonInfo *info = api.MHD_get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

void notes_http_stop(notes_http_server *server) {
    api.MHD_stop_daemon(server->daemon);
    free(server);
}
