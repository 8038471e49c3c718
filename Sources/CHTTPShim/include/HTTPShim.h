// IDKit's narrow C interface to libmicrohttpd for `idkit serve`: a daemon that reads
// each request's body up to a limit and hands the whole request to one handler, which answers
// with a status, a content type, a body and a few headers. No HTTP is parsed here: the library
// does that; this file only starts it, collects the body and queues the answer.
#ifndef IDK_HTTP_SHIM_H
#define IDK_HTTP_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct idk_http_server idk_http_server;
typedef struct idk_http_response idk_http_response;

typedef struct {
    const char *key;
    const char *value;          /* NULL for a key without '=' */
    size_t value_length;        /* the decoded value's bytes: a %00 in it does not end it */
} idk_http_pair;

/* One part of a multipart/form-data body (libmicrohttpd's post processor splits them). */
typedef struct {
    const char *name;
    const char *filename;       /* NULL when absent */
    const char *content_type;   /* NULL when absent */
    const uint8_t *data;
    size_t length;
} idk_http_part;

typedef struct {
    const char *method;
    const char *path;           /* without the query */
    const char *content_type;   /* NULL when absent */
    const char *authorization;  /* NULL when absent */
    const char *request_id;     /* the X-Request-Id header, NULL when absent */
    const idk_http_pair *query; /* the query's parameters, decoded */
    size_t query_count;
    const uint8_t *body;
    size_t body_length;
    int body_too_large;         /* 1: the body passed max_body_bytes and was not kept */
    const idk_http_part *parts; /* a multipart/form-data body's parts (then body is empty), up to 16 */
    size_t part_count;
    int multipart_error;        /* 1: a multipart body libmicrohttpd could not split (no boundary, broken) */
} idk_http_request;

/* Answers one request: called once per request, on one of the daemon's threads. */
typedef void (*idk_http_handler)(void *context, const idk_http_request *request, idk_http_response *response);

typedef struct {
    const char *host;           /* an IPv4 or IPv6 address */
    uint16_t port;              /* 0: any free port (idk_http_port says which) */
    unsigned threads;           /* threads answering requests */
    size_t max_body_bytes;
    unsigned timeout_s;         /* an idle connection is closed after this long */
    unsigned max_connections;
    const char *tls_cert_pem;   /* both or neither: HTTPS */
    const char *tls_key_pem;
} idk_http_config;

/* The answer: status, content type, body (copied). Called once by the handler. */
void idk_http_respond(idk_http_response *response, unsigned status, const char *content_type,
                      const uint8_t *body, size_t length);
/* A body produced piece by piece after the handler returns (sent chunked): `produce` writes up to
   `max` bytes into `buffer` and returns how many, 0 at the end, -1 to cut the answer off; `release`
   is called once when the answer is done or abandoned. */
typedef long (*idk_http_producer)(void *context, uint8_t *buffer, size_t max);
typedef void (*idk_http_release)(void *context);
void idk_http_respond_stream(idk_http_response *response, unsigned status, const char *content_type,
                             idk_http_producer produce, idk_http_release release, void *context);
/* Answer later, from another thread: called by the handler instead of idk_http_respond, it
   returns a token; the connection waits (suspended, holding no thread) until idk_http_finish. */
void *idk_http_defer(idk_http_response *response);
/* The deferred answer to fill (idk_http_respond, idk_http_add_header), then idk_http_finish once. */
idk_http_response *idk_http_deferred_response(void *token);
void idk_http_finish(void *token);
/* One more header of the answer (up to 8). */
void idk_http_add_header(idk_http_response *response, const char *name, const char *value);

/* Starts the daemon; NULL with a message in `error` when it cannot (address in use, bad TLS files). */
idk_http_server *idk_http_start(const idk_http_config *config, idk_http_handler handler, void *context,
                                char *error, size_t error_length);
/* The port the daemon listens on. */
uint16_t idk_http_port(const idk_http_server *server);
/* Requests begun (their headers read) and not yet completed: bodies still arriving included. */
long idk_http_active(const idk_http_server *server);
/* Stops accepting connections; requests in flight go on. */
void idk_http_quiesce(idk_http_server *server);
/* Stops the daemon (after idk_http_quiesce and the in-flight requests) and frees it. */
void idk_http_stop(idk_http_server *server);

#ifdef __cplusplus
}
#endif
#endif
