// GNU libmicrohttpd (libmicrohttpd-dev): the HTTP server of `idkit serve`, reached only through
// CHTTPShim (its daemon is started with a variadic call Swift cannot make).
#include <sys/types.h>
#include <sys/socket.h>
#include <stdint.h>
#include <stdarg.h>
#include <microhttpd.h>
