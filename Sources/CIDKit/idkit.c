// The part of libidkit's C interface that is C: freeing a result (allocated with malloc by the
// Swift exports in IDKitCABI). Everything else is in IDKitCABI/Exports.swift.
#include <stdlib.h>
#include "idkit.h"

void idkit_result_free(idkit_result *result) {
    if (result == NULL) return;
    free(result->json);
    free(result);
}
