// A guard for calls into the OpenGL driver in sanitizer builds.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define UMAX_VIZ_LEAK_CHECKED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UMAX_VIZ_LEAK_CHECKED 1
#endif
#endif
#ifdef UMAX_VIZ_LEAK_CHECKED
#include <sanitizer/lsan_interface.h>
#endif

namespace umax::viz {

/// Blocks allocated inside the OpenGL driver while this guard lives are not
/// leak-checked (only in sanitizer builds; elsewhere it does nothing).
///
/// Why: Mesa's software driver (swrast_dri.so, llvmpipe) keeps two 56-byte
/// blocks from the first draw call that it never frees, and glfwTerminate()
/// unloads the driver, so LeakSanitizer reports them from an "<unknown
/// module>" that no suppression file can name. Valgrind (which keeps the
/// symbols of unloaded libraries) shows them allocated inside swrast_dri.so
/// under ImGui_ImplOpenGL3_RenderDrawData; with the driver kept loaded
/// (LD_PRELOAD) the report disappears. Everything umax-viz allocates itself
/// stays leak-checked: the guard wraps only calls into the GL driver.
class DriverAllocationsNotLeakChecked {
 public:
  DriverAllocationsNotLeakChecked() {
#ifdef UMAX_VIZ_LEAK_CHECKED
    __lsan_disable();
#endif
  }
  ~DriverAllocationsNotLeakChecked() {
#ifdef UMAX_VIZ_LEAK_CHECKED
    __lsan_enable();
#endif
  }
  DriverAllocationsNotLeakChecked(const DriverAllocationsNotLeakChecked&) = delete;
  DriverAllocationsNotLeakChecked& operator=(const DriverAllocationsNotLeakChecked&) = delete;
};

}  // namespace umax::viz
