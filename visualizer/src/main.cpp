// umax-viz: step through a recorded search of micro-Max beside its source.
//
// Structured like Dear ImGui's example_glfw_opengl3: setup (command line,
// window, ImGui, fonts), the loop (poll, new frame, panels, render), and
// cleanup in reverse order. Headless modes (--screenshot, --bench) run the
// same loop for a fixed number of frames in an invisible window.
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#define GLFW_INCLUDE_NONE
#include <GL/gl.h>
#include <GLFW/glfw3.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>

#include "app.h"
#include "command_line.h"
#include "driver_guard.h"
#include "headless.h"
#include "ui.h"
#include "umax/tool_output.h"

namespace {

void glfwError(int error, const char* description) {
  std::fprintf(stderr, "GLFW error %d: %s\n", error, description);
}

/// The window with its OpenGL 3 context (invisible when headless), or null after saying why.
GLFWwindow* openWindow(const umax::viz::Options& options, bool headless) {
  glfwSetErrorCallback(glfwError);
  if (!glfwInit()) {
    std::cerr << "umax-viz: cannot initialise GLFW (no display? try xvfb-run -a umax-viz ...)\n";
    return nullptr;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  if (headless) glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
  GLFWwindow* window = nullptr;
  {
    const umax::viz::DriverAllocationsNotLeakChecked driver;
    window = glfwCreateWindow(options.width, options.height, "umax-viz - micro-Max search stepper", nullptr,
                              nullptr);
  }
  if (!window) {
    // Under an address-space limit (ulimit -v) the OpenGL driver's own allocations fail and GLFW
    // reports a context it cannot create: say so, rather than blame the graphics alone.
    struct rlimit limit {};
    std::string memory;
    if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
      memory = " (the address space is limited to " + std::to_string(limit.rlim_cur >> 20) +
               " MB, ulimit -v: the OpenGL driver may need more)";
    std::cerr << "umax-viz: cannot open a window with OpenGL 3" << memory << "\n";
    glfwTerminate();
    return nullptr;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(headless ? 0 : 1);
  return window;
}

/// The Dear ImGui context, its GLFW and OpenGL backends, the style and the fonts.
void startImGui(umax::viz::App& app, GLFWwindow* window) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;                               // the layout starts the same every time
  io.ConfigFlags &= ~ImGuiConfigFlags_NavEnableKeyboard;  // the arrow keys step the search
  umax::viz::applyStyle();
  umax::viz::countAllInput(window);  // before the backend installs (and chains to) its own
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 130");
  umax::viz::loadFonts(app);
}

/// The window's title names the open trace's search: a think of the Lab says which ideas it goes
/// without (its figures are not micro-Max's own). Set when it changes.
void showTitle(GLFWwindow* window, umax::viz::App& app) {
  static std::string shown = "umax-viz - micro-Max search stepper";
  std::string title = "umax-viz - micro-Max search stepper";
  if (const umax::viz::LoadedTrace* loaded = app.trace()) {
    const umax::SearchVariant& variant = loaded->reader->header().variant;
    title =
        "umax-viz - " + loaded->path + (variant.isDefault() ? "" : " - the Lab, " + variant.description());
  }
  if (title == shown) return;
  shown = title;
  glfwSetWindowTitle(window, title.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  using namespace umax::viz;
  const auto started = std::chrono::steady_clock::now();  // --bench: the first frame's delay from here
  // ---- Setup: command line and the trace (before any window, so a bad file needs no display)
  Options options;
  if (const auto exit = parseCommandLine(argc, argv, options)) return *exit;
  App app(options.sourceDir);
  for (const std::string& problem : app.lineMap().problems()) std::cerr << "umax-viz: " << problem << "\n";
  if (const auto exit = openStartingTrace(app, options)) return *exit;
  app.showHelp = options.showHelp;
  app.showLegend = options.showLegend && !options.hideLegend;
  const bool headless = options.headless();

  // ---- Setup: window and OpenGL context, then Dear ImGui --------------------
  GLFWwindow* window = openWindow(options, headless);
  if (!window) return 1;
  startImGui(app, window);

  // ---- Loop --------------------------------------------------------------
  int exitCode = 0;
  int frame = 0;
  constexpr int kScreenshotFrames = 4;  // windows settle their sizes in the first frames
  FrameBench bench(options.benchFrames, started);
  auto last = std::chrono::steady_clock::now();
  while (!glfwWindowShouldClose(window) && !app.quitRequested) {
    // Poll: when nothing moves by itself, sleep until input arrives.
    waitForNextFrame(headless || app.busy());
    // Playback advances by the time since the last frame, at most 0.1 s of
    // it (the first frame after an idle wait must not leap ahead).
    const auto now = std::chrono::steady_clock::now();
    const double seconds = headless ? 0.0 : std::min(0.1, std::chrono::duration<double>(now - last).count());
    last = now;
    bench.beforeFrame(app);
    showTitle(window, app);

    // New frame and panels.
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    drawFrame(app, seconds);

    // Render.
    ImGui::Render();
    bench.panelsDrawn();
    int displayWidth = 0, displayHeight = 0;
    glfwGetFramebufferSize(window, &displayWidth, &displayHeight);
    glViewport(0, 0, displayWidth, displayHeight);
    glClearColor(0.09f, 0.09f, 0.11f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    {
      const DriverAllocationsNotLeakChecked driver;
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    }
    ++frame;
    if (bench.active()) {
      glFinish();
      bench.frameDrawn(app);
      if (bench.done()) break;
    } else if (!options.screenshot.empty() && frame >= kScreenshotFrames) {
      if (const std::string failure = writeScreenshot(options.screenshot, displayWidth, displayHeight);
          !failure.empty()) {
        std::cerr << "umax-viz: " << failure << "\n";
        exitCode = 1;
      }
      break;
    }
    const DriverAllocationsNotLeakChecked driver;
    glfwSwapBuffers(window);
  }
  if (options.layoutDump) printLayout(app);
  bench.report();
  if (bench.active() && !headlessWaitsForIndexes(app, options)) printIndexTimes(app);

  // ---- Cleanup, in reverse order of setup ---------------------------------
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return umax::finishOutput("umax-viz", exitCode);  // --layout-dump, --bench: their lines went out
}
