// See HTTPShim.h. libmicrohttpd calls `access` several times per request: first with the headers,
// then once per piece of the body, then once with nothing left; the handler runs on that last call.
#include "HTTPShim.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>
#include <stdarg.h>
#include <microhttpd.h>

#define MAX_QUERY 32
#define MAX_HEADERS 8

struct idk_http_server {
    struct MHD_Daemon *daemon;
    idk_http_handler handler;
    void *context;
    size_t max_body_bytes;
    uint16_t port;
    int quiesced;
    long active;                /* requests begun and not yet completed (atomic) */
};

struct idk_http_response {
    void *owner;                /* the request's body_state (for idk_http_defer) */
    int deferred;
    idk_http_producer produce;
    idk_http_release release;
    void *producer_context;
    unsigned status;
    char *content_type;
    uint8_t *body;
    size_t length;
    char *header_names[MAX_HEADERS];
    char *header_values[MAX_HEADERS];
    int header_count;
};

static char *copy_string(const char *s);

#define MAX_PARTS 16

/* One request's body as it arrives: raw, or split into parts when it is multipart/form-data. */
typedef struct {
    uint8_t *data;
    size_t length, capacity;
    int too_large;
    struct MHD_PostProcessor *post;
    int multipart, multipart_error;
    idk_http_part parts[MAX_PARTS];
    size_t part_capacity[MAX_PARTS];
    size_t part_count;
    /* A deferred answer: filled by a worker; the connection suspended until it is done. */
    pthread_mutex_t lock;
    int deferred, suspended, done;
    struct idk_http_response response;
    struct MHD_Connection *connection;
} body_state;

static int append(uint8_t **data, size_t *length, size_t *capacity, const void *bytes, size_t n) {
    if (*length + n > *capacity) {
        size_t c = *capacity ? *capacity : 4096;
        while (c < *length + n) c *= 2;
        uint8_t *grown = realloc(*data, c);
        if (!grown) return 0;
        *data = grown;
        *capacity = c;
    }
    memcpy(*data + *length, bytes, n);
    *length += n;
    return 1;
}

/* libmicrohttpd's post processor hands each part's bytes in pieces; a piece at offset 0 opens a
   new part. The raw byte count is already bounded by max_body_bytes. */
static enum MHD_Result post_iterator(void *cls, enum MHD_ValueKind kind, const char *key, const char *filename,
                                     const char *content_type, const char *transfer_encoding, const char *data,
                                     uint64_t off, size_t size) {
    (void)kind; (void)transfer_encoding;
    body_state *state = cls;
    if (off == 0) {
        if (state->part_count >= MAX_PARTS) return MHD_NO;
        idk_http_part *p = &state->parts[state->part_count++];
        p->name = copy_string(key ? key : "");
        p->filename = copy_string(filename);
        p->content_type = copy_string(content_type);
    }
    if (state->part_count == 0 || size == 0) return MHD_YES;
    size_t k = state->part_count - 1;
    idk_http_part *p = &state->parts[k];
    uint8_t *d = (uint8_t *)p->data;
    int ok = append(&d, &p->length, &state->part_capacity[k], data, size);
    p->data = d;
    return ok ? MHD_YES : MHD_NO;
}

static void free_parts(body_state *state) {
    for (size_t i = 0; i < state->part_count; i++) {
        free((void *)state->parts[i].name);
        free((void *)state->parts[i].filename);
        free((void *)state->parts[i].content_type);
        free((void *)state->parts[i].data);
    }
    state->part_count = 0;
}

static char *copy_string(const char *s) {
    if (!s) return NULL;
    size_t n = strlen(s);
    char *out = malloc(n + 1);
    if (out) memcpy(out, s, n + 1);
    return out;
}

void idk_http_respond(idk_http_response *r, unsigned status, const char *content_type, const uint8_t *body, size_t length) {
    r->status = status;
    free(r->content_type);
    r->content_type = copy_string(content_type);
    free(r->body);
    r->body = NULL;
    r->length = 0;
    if (length > 0) {
        r->body = malloc(length);
        if (r->body) {
            memcpy(r->body, body, length);
            r->length = length;
        } else {
            r->status = 500;
        }
    }
}

void idk_http_respond_stream(idk_http_response *r, unsigned status, const char *content_type,
                             idk_http_producer produce, idk_http_release release, void *context) {
    idk_http_respond(r, status, content_type, NULL, 0);
    r->produce = produce;
    r->release = release;
    r->producer_context = context;
}

typedef struct {
    idk_http_producer produce;
    idk_http_release release;
    void *context;
} stream_state;

static ssize_t stream_reader(void *cls, uint64_t pos, char *buf, size_t max) {
    (void)pos;
    stream_state *s = cls;
    long n = s->produce(s->context, (uint8_t *)buf, max);
    if (n == 0) return MHD_CONTENT_READER_END_OF_STREAM;
    if (n < 0) return MHD_CONTENT_READER_END_WITH_ERROR;
    return (ssize_t)n;
}

static void stream_free(void *cls) {
    stream_state *s = cls;
    if (s->release) s->release(s->context);
    free(s);
}

void idk_http_add_header(idk_http_response *r, const char *name, const char *value) {
    if (r->header_count >= MAX_HEADERS || !name || !value) return;
    r->header_names[r->header_count] = copy_string(name);
    r->header_values[r->header_count] = copy_string(value);
    r->header_count++;
}

static void free_response(idk_http_response *r) {
    if (r->produce && r->release) r->release(r->producer_context);   /* never handed to a response */
    free(r->content_type);
    free(r->body);
    for (int i = 0; i < r->header_count; i++) {
        free(r->header_names[i]);
        free(r->header_values[i]);
    }
}

typedef struct {
    idk_http_pair pairs[MAX_QUERY];
    size_t count;
} query_list;

/* The sized iterator: a value whose decoding holds a NUL byte (`?flag=%00true`) keeps its
   length, so that it is judged whole instead of as the empty text before the NUL. */
static enum MHD_Result collect_query(void *cls, enum MHD_ValueKind kind, const char *key, size_t key_size,
                                     const char *value, size_t value_size) {
    (void)kind;
    (void)key_size;
    query_list *q = cls;
    if (q->count < MAX_QUERY) {
        q->pairs[q->count].key = key;
        q->pairs[q->count].value = value;
        q->pairs[q->count].value_length = value ? value_size : 0;
        q->count++;
    }
    return MHD_YES;
}

static enum MHD_Result queue(struct MHD_Connection *connection, idk_http_response *r) {
    struct MHD_Response *response;
    if (r->produce) {
        stream_state *s = malloc(sizeof *s);
        if (!s) {
            if (r->release) r->release(r->producer_context);
            return MHD_NO;
        }
        s->produce = r->produce;
        s->release = r->release;
        s->context = r->producer_context;
        r->produce = NULL;                         /* the response owns it now */
        response = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 65536, stream_reader, s, stream_free);
        if (!response) {
            stream_free(s);
            return MHD_NO;
        }
    } else {
        response = MHD_create_response_from_buffer(r->length, r->body, MHD_RESPMEM_MUST_COPY);
    }
    if (!response) return MHD_NO;
    if (r->content_type) MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, r->content_type);
    for (int i = 0; i < r->header_count; i++) MHD_add_response_header(response, r->header_names[i], r->header_values[i]);
    enum MHD_Result result = MHD_queue_response(connection, r->status ? r->status : 500, response);
    MHD_destroy_response(response);
    return result;
}

static enum MHD_Result answer(idk_http_server *server, struct MHD_Connection *connection, const char *url,
                              const char *method, body_state *state) {
    query_list query = {.count = 0};
    MHD_get_connection_values_n(connection, MHD_GET_ARGUMENT_KIND, collect_query, &query);
    idk_http_request request = {
        .method = method,
        .path = url,
        .content_type = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE),
        .authorization = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION),
        .request_id = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "X-Request-Id"),
        .query = query.pairs,
        .query_count = query.count,
        .body = state ? state->data : NULL,
        .body_length = state ? state->length : 0,
        .body_too_large = state ? state->too_large : 0,
        .parts = state ? state->parts : NULL,
        .part_count = state ? state->part_count : 0,
        .multipart_error = state ? state->multipart_error : 0,
    };
    idk_http_response response;
    memset(&response, 0, sizeof response);
    response.owner = state;
    server->handler(server->context, &request, &response);
    if (response.deferred && state) {
        // A worker answers. If it already has, send that; else wait for it without a thread.
        pthread_mutex_lock(&state->lock);
        if (state->done) {
            pthread_mutex_unlock(&state->lock);
            return queue(connection, &state->response);
        }
        MHD_suspend_connection(connection);
        state->suspended = 1;
        pthread_mutex_unlock(&state->lock);
        return MHD_YES;
    }
    enum MHD_Result result = queue(connection, &response);
    free_response(&response);
    return result;
}

void *idk_http_defer(idk_http_response *response) {
    body_state *state = response->owner;
    if (!state) return NULL;
    response->deferred = 1;
    state->deferred = 1;
    return state;
}

idk_http_response *idk_http_deferred_response(void *token) {
    return &((body_state *)token)->response;
}

void idk_http_finish(void *token) {
    body_state *state = token;
    pthread_mutex_lock(&state->lock);
    state->done = 1;
    if (state->suspended) MHD_resume_connection(state->connection);
    pthread_mutex_unlock(&state->lock);
}

static enum MHD_Result access_handler(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                                      const char *version, const char *upload_data, size_t *upload_data_size, void **con_cls) {
    (void)version;
    idk_http_server *server = cls;
    body_state *state = *con_cls;
    if (!state) {
        state = calloc(1, sizeof *state);
        if (!state) return MHD_NO;
        pthread_mutex_init(&state->lock, NULL);
        state->connection = connection;
        *con_cls = state;
        __atomic_add_fetch(&server->active, 1, __ATOMIC_ACQ_REL);
        const char *type = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
        if (type && strncasecmp(type, "multipart/form-data", 19) == 0) {
            state->multipart = 1;
            state->post = MHD_create_post_processor(connection, 16384, post_iterator, state);
            if (!state->post) state->multipart_error = 1;
        }
        // A declared length over the limit is answered before any of the body is read.
        const char *declared = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (declared) {
            char *end = NULL;
            unsigned long long n = strtoull(declared, &end, 10);
            if (end && *end == '\0' && n > server->max_body_bytes) {
                state->too_large = 1;
                return answer(server, connection, url, method, state);
            }
        }
        return MHD_YES;
    }
    if (state->deferred) {
        // Resumed: the worker's answer is ready (a suspended connection is not called before).
        pthread_mutex_lock(&state->lock);
        int done = state->done;
        pthread_mutex_unlock(&state->lock);
        return done ? queue(connection, &state->response) : MHD_YES;
    }
    if (*upload_data_size > 0) {
        size_t n = *upload_data_size;
        *upload_data_size = 0;
        if (state->too_large) return MHD_YES;
        if (state->length + n > server->max_body_bytes) {
            state->too_large = 1;
            free(state->data);
            state->data = NULL;
            state->length = state->capacity = 0;
            free_parts(state);
            return MHD_YES;
        }
        if (state->length + n > state->capacity) {
            size_t capacity = state->capacity ? state->capacity : 4096;
            while (capacity < state->length + n) capacity *= 2;
            if (capacity > server->max_body_bytes) capacity = server->max_body_bytes;
            uint8_t *grown = realloc(state->data, capacity);
            if (!grown) return MHD_NO;
            state->data = grown;
            state->capacity = capacity;
        }
        memcpy(state->data + state->length, upload_data, n);
        state->length += n;
        return MHD_YES;
    }
    if (state->multipart) {
        // The whole body, kept like any other (bounded by max_body_bytes), split in one call: fed
        // piece by piece as it arrives, libmicrohttpd 0.9.75's post processor can fail on a part
        // header cut between two pieces.
        if (state->post) {
            if (!state->multipart_error && state->length > 0 &&
                MHD_post_process(state->post, (const char *)state->data, state->length) != MHD_YES) state->multipart_error = 1;
            if (MHD_destroy_post_processor(state->post) != MHD_YES) state->multipart_error = 1;
            state->post = NULL;
        }
        free(state->data);
        state->data = NULL;
        state->length = state->capacity = 0;   /* the body is in its parts */
    }
    return answer(server, connection, url, method, state);
}

static void completed(void *cls, struct MHD_Connection *connection, void **con_cls, enum MHD_RequestTerminationCode code) {
    (void)connection; (void)code;
    idk_http_server *server = cls;
    body_state *state = *con_cls;
    if (state) {
        if (state->deferred) free_response(&state->response);
        pthread_mutex_destroy(&state->lock);
        if (state->post) MHD_destroy_post_processor(state->post);
        free_parts(state);
        free(state->data);
        free(state);
        *con_cls = NULL;
        __atomic_sub_fetch(&server->active, 1, __ATOMIC_ACQ_REL);
    }
}

long idk_http_active(const idk_http_server *server) {
    return __atomic_load_n(&server->active, __ATOMIC_ACQUIRE);
}

idk_http_server *idk_http_start(const idk_http_config *config, idk_http_handler handler, void *context,
                                char *error, size_t error_length) {
    idk_http_server *server = calloc(1, sizeof *server);
    if (!server) {
        snprintf(error, error_length, "out of memory");
        return NULL;
    }
    server->handler = handler;
    server->context = context;
    server->max_body_bytes = config->max_body_bytes;

    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
    struct sockaddr *address;
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_ALLOW_SUSPEND_RESUME;
    memset(&v4, 0, sizeof v4);
    memset(&v6, 0, sizeof v6);
    if (inet_pton(AF_INET, config->host, &v4.sin_addr) == 1) {
        v4.sin_family = AF_INET;
        v4.sin_port = htons(config->port);
        address = (struct sockaddr *)&v4;
    } else if (inet_pton(AF_INET6, config->host, &v6.sin6_addr) == 1) {
        v6.sin6_family = AF_INET6;
        v6.sin6_port = htons(config->port);
        address = (struct sockaddr *)&v6;
        flags |= MHD_USE_IPv6;
    } else {
        snprintf(error, error_length, "'%s' is not an IPv4 or IPv6 address", config->host);
        free(server);
        return NULL;
    }
    int tls = config->tls_cert_pem && config->tls_key_pem;
    if (tls) flags |= MHD_USE_TLS;
    unsigned threads = config->threads ? config->threads : 1;
    // The options as an array (MHD_OPTION_ARRAY): the TLS pair only when given.
    struct MHD_OptionItem options[8];
    int n = 0;
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_SOCK_ADDR, 0, address};
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_THREAD_POOL_SIZE, (intptr_t)threads, NULL};
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_LIMIT, (intptr_t)config->max_connections, NULL};
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)config->timeout_s, NULL};
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, server};
    if (tls) {
        options[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)config->tls_cert_pem};
        options[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_KEY, 0, (void *)config->tls_key_pem};
    }
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};
    server->daemon = MHD_start_daemon(flags, config->port, NULL, NULL, access_handler, server,
                                      MHD_OPTION_ARRAY, options, MHD_OPTION_END);
    if (!server->daemon) {
        snprintf(error, error_length, "cannot listen on %s port %u (in use, not this machine's address, %s)",
                 config->host, (unsigned)config->port, tls ? "or the TLS certificate and key do not load" : "or not permitted");
        free(server);
        return NULL;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
    server->port = info ? info->port : config->port;
    return server;
}

uint16_t idk_http_port(const idk_http_server *server) { return server->port; }

void idk_http_quiesce(idk_http_server *server) {
    if (server->quiesced) return;
    MHD_socket s = MHD_quiesce_daemon(server->daemon);
    if (s != MHD_INVALID_SOCKET) close(s);
    server->quiesced = 1;
}

void idk_http_stop(idk_http_server *server) {
    if (!server) return;
    MHD_stop_daemon(server->daemon);
    free(server);
}
