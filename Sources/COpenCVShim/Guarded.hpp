// Shared by the shim's C++ files: every entry point runs its body through `guarded`, so that no
// C++ exception crosses into Swift.
#ifndef COPENCV_SHIM_GUARDED_HPP
#define COPENCV_SHIM_GUARDED_HPP

#include <cstdint>
#include <cstring>
#include <exception>

namespace idk {

inline void write_error(char *error, size_t capacity, const char *message) {
    if (error == nullptr || capacity == 0) return;
    std::strncpy(error, message, capacity - 1);
    error[capacity - 1] = '\0';
}

/// OpenCV's own worker threads off, once per process: IDKit's callers parallelize across images
/// and tasks, and on one core a thread pool only adds hand-offs.
void single_threaded();

/// Runs `body`, turning every exception into -1 and a message: nothing crosses into Swift.
template <typename Body> int32_t guarded(char *error, size_t capacity, Body body) {
    try {
        single_threaded();
        return body();
    } catch (const std::exception &e) {
        write_error(error, capacity, e.what());
    } catch (...) {
        write_error(error, capacity, "unknown C++ exception in OpenCV");
    }
    return -1;
}

}  // namespace idk
#endif
