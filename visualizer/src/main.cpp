// umax-viz: step through a recorded search of micro-Max beside its source.
//
// Structured like Dear ImGui's example_glfw_opengl3: setup (command line,
// window, ImGui, fonts), the loop (poll, new frame, panels, render), and
// cleanup in reverse order. Headless modes (--screenshot, --bench) run the
// same loop for a fixed number of frames in an invisible window.
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <stb_image_write.h>  // libstb-dev; the implementation is in libstb

#include <CLI/CLI.hpp>
#define GLFW_INCLUDE_NONE
#include <GL/gl.h>
#include <GLFW/glfw3.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <random>

#include "app.h"
#include "panels.h"

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

namespace {

constexpr float kLayoutWidth = 1280;
constexpr float kLayoutHeight = 800;

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

/// Input events since the last frame, counted by the callbacks countAllInput
/// installs; Dear ImGui's GLFW backend chains to callbacks installed before it.
int inputEvents = 0;

void countAllInput(GLFWwindow* window) {
  glfwSetCursorPosCallback(window, [](GLFWwindow*, double, double) { ++inputEvents; });
  glfwSetScrollCallback(window, [](GLFWwindow*, double, double) { ++inputEvents; });
  glfwSetMouseButtonCallback(window, [](GLFWwindow*, int, int, int) { ++inputEvents; });
  glfwSetKeyCallback(window, [](GLFWwindow*, int, int, int, int) { ++inputEvents; });
  glfwSetCharCallback(window, [](GLFWwindow*, unsigned) { ++inputEvents; });
  glfwSetWindowFocusCallback(window, [](GLFWwindow*, int) { ++inputEvents; });
  glfwSetCursorEnterCallback(window, [](GLFWwindow*, int) { ++inputEvents; });
  glfwSetFramebufferSizeCallback(window, [](GLFWwindow*, int, int) { ++inputEvents; });
  glfwSetWindowRefreshCallback(window, [](GLFWwindow*) { ++inputEvents; });
}

void glfwError(int error, const char* description) {
  std::fprintf(stderr, "GLFW error %d: %s\n", error, description);
}

/// CPU time of this thread: the frame cost without the waits of a loaded machine.
double threadCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return double(now.tv_sec) + double(now.tv_nsec) * 1e-9;
}

bool keyPressed(int key) { return ImGui::IsKeyPressed(key, true); }

/// Shortcuts for all stepping (not while a text field has the keyboard).
void handleKeys(App& app) {
  const ImGuiIO& io = ImGui::GetIO();
  if (keyPressed(GLFW_KEY_F1) || (io.KeyShift && keyPressed(GLFW_KEY_SLASH) && !io.WantTextInput))
    app.showHelp = !app.showHelp;
  if (io.KeyCtrl && keyPressed(GLFW_KEY_O)) app.showOpen = true;
  if (io.KeyCtrl && keyPressed(GLFW_KEY_R)) app.showRecord = true;
  if (io.KeyCtrl && keyPressed(GLFW_KEY_Q)) app.quitRequested = true;
  if (io.WantTextInput || io.KeyCtrl) return;
  if (keyPressed(GLFW_KEY_ESCAPE)) app.showHelp = false;
  if (!app.hasTrace()) return;
  if (keyPressed(GLFW_KEY_RIGHT)) app.stepForward();
  if (keyPressed(GLFW_KEY_LEFT)) app.stepBack();
  if (keyPressed(GLFW_KEY_DOWN)) app.stepOver();
  if (keyPressed(GLFW_KEY_UP)) app.stepOut();
  if (keyPressed(GLFW_KEY_HOME)) app.seek(0);
  if (keyPressed(GLFW_KEY_END)) app.seek(app.eventCount());
  if (keyPressed(GLFW_KEY_PAGE_DOWN)) app.seek(app.cursor() + std::max<uint64_t>(1, app.eventCount() / 100));
  if (keyPressed(GLFW_KEY_PAGE_UP))
    app.seek(app.cursor() - std::min(app.cursor(), std::max<uint64_t>(1, app.eventCount() / 100)));
  if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) app.playing = !app.playing;
  if (keyPressed(GLFW_KEY_C)) app.nextCutoff();
  if (keyPressed(GLFW_KEY_H)) app.nextHashHit();
  if (keyPressed(GLFW_KEY_I)) io.KeyShift ? app.previousIteration() : app.nextIteration();
  if (keyPressed(GLFW_KEY_F)) app.followCursor = !app.followCursor;
  if (keyPressed(GLFW_KEY_EQUAL) || keyPressed(GLFW_KEY_KP_ADD))
    app.speed = std::min(200000.0f, app.speed * 2);
  if (keyPressed(GLFW_KEY_MINUS) || keyPressed(GLFW_KEY_KP_SUBTRACT))
    app.speed = std::max(1.0f, app.speed / 2);
}

void drawHelp(App& app) {
  if (!app.showHelp) return;
  ImGui::SetNextWindowPos(ImVec2(ImGui::GetIO().DisplaySize.x / 2, ImGui::GetIO().DisplaySize.y / 2),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.97f);
  ImGui::Begin("Keyboard shortcuts", &app.showHelp,
               ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse);
  static const char* const kRows[][2] = {
      {"Right", "step one event forward (into calls)"},
      {"Left", "step one event back"},
      {"Down", "step over: the next move with its whole reply, or the next call"},
      {"Up", "step out: to just after the current call returns"},
      {"Space", "play / pause"},
      {"+ / -", "play faster / slower"},
      {"C", "next beta cutoff"},
      {"H", "next hash hit"},
      {"I / Shift+I", "next / previous iteration of the root"},
      {"Home / End", "first / last event"},
      {"PgUp / PgDn", "1% of the trace back / forward"},
      {"F", "follow the cursor in the tree and source (on/off)"},
      {"Ctrl+O", "open a trace file"},
      {"Ctrl+R", "record a new search"},
      {"Ctrl+Q", "quit"},
      {"F1 or ?", "this help"},
  };
  if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg)) {
    for (const auto& row : kRows) {
      ImGui::TableNextColumn();
      ImGui::TextColored(ImVec4(1, 0.85f, 0.4f, 1), "%s", row[0]);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(row[1]);
    }
    ImGui::EndTable();
  }
  ImGui::TextDisabled("Click a row of the search tree to jump to that call; drag the timeline to scrub.");
  ImGui::End();
}

void drawMenu(App& app) {
  if (!ImGui::BeginMainMenuBar()) return;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Open trace...", "Ctrl+O")) app.showOpen = true;
    if (ImGui::MenuItem("Record a search...", "Ctrl+R")) app.showRecord = true;
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", "Ctrl+Q")) app.quitRequested = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    ImGui::MenuItem("Follow the cursor", "F", &app.followCursor);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    if (ImGui::MenuItem("Keyboard shortcuts", "F1")) app.showHelp = true;
    ImGui::EndMenu();
  }
  if (LoadedTrace* loaded = app.trace()) {
    const trace::TraceHeader& header = loaded->reader->header();
    ImGui::TextDisabled("  %s  |  %s%s%s  |  budget %lld  |  %llu events", loaded->path.c_str(),
                        header.fen.empty() ? "start position" : header.fen.c_str(),
                        header.moves.empty() ? "" : " + ", header.moves.c_str(),
                        static_cast<long long>(header.budget),
                        static_cast<unsigned long long>(loaded->reader->eventCount()));
    if (loaded->reader->truncated())
      ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "  TRUNCATED: %s",
                         loaded->reader->truncationNote().c_str());
    if (!loaded->treeReady && !loaded->workerFailed)
      ImGui::TextColored(ImVec4(1, 0.8f, 0.3f, 1), "  call tree %.0f%%", 100 * loaded->treeProgress.load());
    if (!loaded->indexReady && !loaded->indexFailed)
      ImGui::TextColored(ImVec4(1, 0.8f, 0.3f, 1), "  hash index %.0f%%", 100 * loaded->indexProgress.load());
    if (loaded->workerFailed)
      ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "  call tree failed: %s", loaded->workerError.c_str());
    if (loaded->indexFailed)
      ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "  hash index failed: %s", loaded->indexError.c_str());
  }
  ImGui::EndMainMenuBar();
}

/// File > Open, File > Record, the recording progress and errors.
void drawDialogs(App& app) {
  if (app.showOpen) {
    ImGui::SetNextWindowPos(ImVec2(300, 120), ImGuiCond_Appearing);
    ImGui::Begin("Open trace", &app.showOpen, ImGuiWindowFlags_AlwaysAutoResize);
    ImGui::TextUnformatted("Path of a trace file (umax-trace record ... -o FILE):");
    ImGui::SetNextItemWidth(520);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    const bool enter =
        ImGui::InputText("##path", app.openPath, sizeof app.openPath, ImGuiInputTextFlags_EnterReturnsTrue);
    if (ImGui::Button("Open") || enter) {
      if (app.openTrace(app.openPath)) app.showOpen = false;
    }
    if (!app.error().empty()) ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "%s", app.error().c_str());
    ImGui::End();
  }
  if (app.showRecord) {
    ImGui::SetNextWindowPos(ImVec2(300, 120), ImGuiCond_Appearing);
    ImGui::Begin("Record a search", &app.showRecord, ImGuiWindowFlags_AlwaysAutoResize);
    ImGui::SetNextItemWidth(420);
    ImGui::InputTextWithHint("FEN", "empty: the start position", app.recordFen, sizeof app.recordFen);
    ImGui::SetNextItemWidth(420);
    ImGui::InputTextWithHint("moves", "moves played first, e.g. e2e4 e7e5", app.recordMoves,
                             sizeof app.recordMoves);
    ImGui::SetNextItemWidth(160);
    ImGui::InputInt("node budget", &app.recordNodes, 1000, 10000);
    app.recordNodes = std::clamp(app.recordNodes, 1, 10000000);
    if (ImGui::Button("Record and open")) {
      const auto path =
          std::filesystem::temp_directory_path() /
          ("umax-viz-" + std::to_string(getpid()) + "-" + std::to_string(app.recordNodes) + ".trc");
      app.startRecording(app.recordFen, app.recordMoves, app.recordNodes, path.string());
      app.showRecord = false;
    }
    ImGui::End();
  }
  if (Recording* job = app.recording()) {
    ImGui::SetNextWindowPos(ImVec2(ImGui::GetIO().DisplaySize.x / 2, 200), ImGuiCond_Always, ImVec2(0.5f, 0));
    ImGui::Begin("Recording", nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse);
    ImGui::Text("Recording a search into %s", job->path.c_str());
    ImGui::Text("iteration %d, %llu nodes (budget %ld; the last iteration runs past it)", job->draft.load(),
                static_cast<unsigned long long>(job->nodes.load()), job->budget);
    ImGui::ProgressBar(std::min(1.0f, float(job->nodes.load()) / float(std::max(1L, job->budget))),
                       ImVec2(420, 0));
    ImGui::End();
  }
  if (!app.error().empty() && !app.showOpen) {
    ImGui::SetNextWindowPos(ImVec2(ImGui::GetIO().DisplaySize.x / 2, 80), ImGuiCond_Always, ImVec2(0.5f, 0));
    ImGui::Begin("Error", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
    ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "%s", app.error().c_str());
    if (ImGui::Button("OK")) app.setError("");
    ImGui::End();
  }
}

/// One frame of the user interface (between NewFrame and Render).
void drawFrame(App& app, double seconds) {
  app.layout.clear();
  handleKeys(app);
  app.update(seconds);
  drawMenu(app);
  drawBoardPanel(app);
  drawVariablesPanel(app);
  drawSourcePanel(app);
  drawTreePanel(app);
  drawHashPanel(app);
  drawTimelinePanel(app);
  drawGamePanel(app);
  drawDialogs(app);
  drawHelp(app);
}

bool writeScreenshot(const std::string& path, int width, int height) {
  std::vector<unsigned char> pixels(static_cast<std::size_t>(width) * height * 3);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
  stbi_flip_vertically_on_write(1);
  return stbi_write_png(path.c_str(), width, height, 3, pixels.data(), width * 3) != 0;
}

void loadFonts(App& app) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->AddFontDefault();
  static const ImWchar kChessRange[] = {0x2654, 0x265F, 0};
  const char* fontPath = UMAX_FONT_PATH;
  if (!std::filesystem::exists(fontPath)) {
    std::fprintf(stderr, "umax-viz: %s not found (Debian: fonts-dejavu-core); pieces drawn as text\n",
                 fontPath);
    return;
  }
  // The chess glyphs merged into the default font (for text), and a large
  // copy for the board.
  ImFontConfig merge;
  merge.MergeMode = true;
  io.Fonts->AddFontFromFileTTF(fontPath, 13.0f, &merge, kChessRange);
  app.pieceFont = io.Fonts->AddFontFromFileTTF(fontPath, 64.0f, nullptr, kChessRange);
}

}  // namespace

void placePanel(float x, float y, float width, float height, bool force) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const float sx = display.x / kLayoutWidth, sy = display.y / kLayoutHeight;
  const ImGuiCond cond = force ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
  ImGui::SetNextWindowPos(ImVec2(x * sx, y * sy), cond);
  ImGui::SetNextWindowSize(ImVec2(width * sx, height * sy), cond);
}

}  // namespace umax::viz

int main(int argc, char** argv) {
  using namespace umax::viz;
  // ---- Setup: command line ----------------------------------------------
  CLI::App cli{"umax-viz - step through a recorded micro-Max search beside its source"};
  std::string tracePath, fen, moves, screenshot, sourceDir = UMAX_SOURCE_DIR, output;
  long nodes = 0;
  long long event = -1;
  int benchFrames = 0, width = 1280, height = 800, ply = 0;
  bool layoutDump = false, showHelp = false;
  cli.add_option("trace", tracePath,
                 "trace file, or game folder (umax-readable --trace-dir) or its PGN, to open");
  cli.add_option("--ply", ply, "in a game folder, open the think of this ply (1 = white's first move)");
  cli.add_option("--fen", fen, "record a search of this position first (with --nodes)");
  cli.add_option("--moves", moves, "moves played before the recorded search, e.g. \"e2e4 e7e5\"");
  cli.add_option("--nodes", nodes, "node budget of the search to record (records when given)");
  cli.add_option("-o,--output", output, "where to write the recorded trace (default: a temporary file)");
  cli.add_option("--event", event, "open the trace at this event (cursor = events applied)");
  cli.add_option("--screenshot", screenshot, "render one frame into this PNG and exit (headless)");
  cli.add_flag("--layout-dump", layoutDump, "print each panel's name and rectangle after the frame");
  cli.add_flag("--show-help", showHelp, "open with the keyboard-shortcut overlay shown");
  cli.add_option("--bench", benchFrames,
                 "headless: render this many frames while scrubbing and print timings");
  cli.add_option("--size", width, "window width (height follows 1280x800)")->check(CLI::Range(640, 4096));
  cli.add_option("--source-dir", sourceDir, "project directory holding minimal/ and readable/");
  CLI11_PARSE(cli, argc, argv);
  height = width * 800 / 1280;
  const bool headless = !screenshot.empty() || benchFrames > 0;
  if (nodes <= 0 && (!fen.empty() || !moves.empty())) {
    std::cerr << "umax-viz: --fen/--moves record a search and need --nodes N\n";
    return 2;
  }

  App app(sourceDir);
  for (const std::string& problem : app.lineMap().problems()) std::cerr << "umax-viz: " << problem << "\n";
  // A trace given on the command line is opened before any window exists, so
  // a bad file is reported without a display.
  if (nodes > 0) {
    if (output.empty())
      output = (std::filesystem::temp_directory_path() / ("umax-viz-" + std::to_string(getpid()) + ".trc"))
                   .string();
    app.startRecording(fen, moves, nodes, output);
    if (headless) {  // no UI to show progress in: wait for it here
      while (app.recording() && !app.recording()->done)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      app.update(0);
      if (!app.error().empty()) {
        std::cerr << "umax-viz: " << app.error() << "\n";
        return 1;
      }
    }
  } else if (!tracePath.empty()) {
    const auto start = std::chrono::steady_clock::now();
    if (!openTraceOrGame(app, tracePath, ply)) {
      std::cerr << "umax-viz: " << app.error() << "\n";
      return 1;
    }
    if (app.trace()->reader->truncated())
      std::cerr << "umax-viz: " << tracePath << " is truncated (" << app.trace()->reader->truncationNote()
                << "): showing the " << app.eventCount() << " events before the cut\n";
    if (benchFrames > 0)
      std::printf("open: %.3f s wall, %.3f s CPU (mmap, CRC check, replay model) for %llu events, %.1f MB\n",
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                  app.trace()->openCpuSeconds, static_cast<unsigned long long>(app.eventCount()),
                  app.trace()->reader->fileSize() / 1e6);
  } else if (headless) {
    std::cerr << "umax-viz: --screenshot and --bench need a trace file or --nodes\n";
    return 2;
  }
  if (headless && app.hasTrace()) {
    // Headless frames show the finished tree and index: wait for them here.
    const auto start = std::chrono::steady_clock::now();
    app.waitForIndexes();
    if (benchFrames > 0)
      std::printf(
          "background, two threads: both ready %.3f s after opening; call tree %.3f s wall "
          "(%.3f s CPU), hash history + timeline index %.3f s wall (%.3f s CPU)\n",
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
          app.trace()->treeSeconds, app.trace()->treeCpuSeconds, app.trace()->indexSeconds,
          app.trace()->indexCpuSeconds);
  }

  // ---- Setup: window and OpenGL context ---------------------------------
  glfwSetErrorCallback(glfwError);
  if (!glfwInit()) {
    std::cerr << "umax-viz: cannot initialise GLFW (no display? try xvfb-run -a umax-viz ...)\n";
    return 1;
  }
  const char* glslVersion = "#version 130";
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  if (headless) glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
  GLFWwindow* window = nullptr;
  {
    const DriverAllocationsNotLeakChecked driver;
    window = glfwCreateWindow(width, height, "umax-viz - micro-Max search stepper", nullptr, nullptr);
  }
  if (!window) {
    std::cerr << "umax-viz: cannot open a window with OpenGL 3\n";
    glfwTerminate();
    return 1;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(headless ? 0 : 1);

  // ---- Setup: Dear ImGui context, backends, fonts -----------------------
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;                               // the layout starts the same every time
  io.ConfigFlags &= ~ImGuiConfigFlags_NavEnableKeyboard;  // the arrow keys step the search
  ImGui::StyleColorsDark();
  ImGui::GetStyle().WindowRounding = 0;
  ImGui::GetStyle().WindowPadding = ImVec2(6, 5);
  ImGui::GetStyle().ItemSpacing = ImVec2(6, 3);
  countAllInput(window);  // before the backend installs (and chains to) its own
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init(glslVersion);
  loadFonts(app);

  if (app.hasTrace() && event >= 0) app.seek(static_cast<uint64_t>(event));
  app.showHelp = showHelp;

  // ---- Loop --------------------------------------------------------------
  int exitCode = 0;
  int frame = 0;
  std::vector<double> frameTimes, seekTimes, uiTimes, uiCpuTimes;
  std::mt19937_64 random(12345);
  const int screenshotFrames = 4;  // windows settle their sizes in the first frames
  auto last = std::chrono::steady_clock::now();
  int settleFrames = 0;  // frames still to draw after the last input
  while (!glfwWindowShouldClose(window) && !app.quitRequested) {
    // Poll events; when nothing moves by itself, sleep until input arrives
    // (or a second passes) instead of redrawing at the display's rate. After
    // input a few more frames let ImGui settle hovers, clicks and popups.
    if (headless || app.busy() || settleFrames > 0) {
      glfwPollEvents();
      if (settleFrames > 0) --settleFrames;
    } else {
      glfwWaitEventsTimeout(1.0);
    }
    if (inputEvents > 0) {
      inputEvents = 0;
      settleFrames = 3;
    }
    const auto frameStart = std::chrono::steady_clock::now();
    // Playback advances by the time since the last frame, at most 0.1 s of it
    // (the first frame after an idle wait must not leap ahead).
    const double seconds = std::min(0.1, std::chrono::duration<double>(frameStart - last).count());
    last = frameStart;
    auto stamp = std::chrono::steady_clock::now();
    auto lap = [&stamp] {
      const auto now = std::chrono::steady_clock::now();
      const double elapsed = std::chrono::duration<double>(now - stamp).count();
      stamp = now;
      return elapsed;
    };
    if (benchFrames > 0 && app.hasTrace()) {
      // Scrub: half the frames jump anywhere, half move a little.
      if (frame % 2 == 0)
        app.seek(random() % (app.eventCount() + 1));
      else
        app.seek(app.cursor() + 1 + random() % 2000);
      seekTimes.push_back(lap());
    }
    // New frame and panels.
    const double uiCpuStart = threadCpuSeconds();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    drawFrame(app, headless ? 0.0 : seconds);
    // Render.
    ImGui::Render();
    if (benchFrames > 0) {
      uiTimes.push_back(lap());
      uiCpuTimes.push_back(threadCpuSeconds() - uiCpuStart);
    }
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
    if (benchFrames > 0) {
      glFinish();
      frameTimes.push_back(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - frameStart).count());
      if (frame >= benchFrames) break;
    } else if (!screenshot.empty() && frame >= screenshotFrames) {
      if (!writeScreenshot(screenshot, displayWidth, displayHeight)) {
        std::cerr << "umax-viz: cannot write " << screenshot << "\n";
        exitCode = 1;
      }
      break;
    }
    const DriverAllocationsNotLeakChecked driver;
    glfwSwapBuffers(window);
  }

  if (layoutDump)
    for (const PanelRect& rect : app.layout)
      std::printf("panel %s %.0f %.0f %.0f %.0f\n", rect.name.c_str(), rect.x, rect.y, rect.width,
                  rect.height);
  if (benchFrames > 0 && !frameTimes.empty()) {
    auto report = [](const char* what, const std::vector<double>& times) {
      double sum = 0, worst = 0;
      for (double t : times) {
        sum += t;
        worst = std::max(worst, t);
      }
      const double mean = times.empty() ? 0 : sum / double(times.size());
      std::printf("%-34s mean %7.2f ms  max %7.2f ms\n", what, 1000 * mean, 1000 * worst);
      return mean;
    };
    // The first frame builds the font atlas and the GL objects: reported apart.
    std::printf("first frame (font atlas, GL setup): %.2f ms\n", 1000 * frameTimes.front());
    frameTimes.erase(frameTimes.begin());
    if (!uiTimes.empty()) uiTimes.erase(uiTimes.begin());
    if (!seekTimes.empty()) seekTimes.erase(seekTimes.begin());
    if (!uiCpuTimes.empty()) uiCpuTimes.erase(uiCpuTimes.begin());
    std::printf("%zu further frames while scrubbing (half random jumps, half short moves):\n",
                frameTimes.size());
    report("  seek (replay model)", seekTimes);
    report("  panels (ImGui frame), wall", uiTimes);
    report("  panels (ImGui frame), CPU time", uiCpuTimes);
    const double mean = report("  whole frame incl. GL + glFinish", frameTimes);
    std::printf("  => %.0f fps mean (GL is Mesa's renderer under xvfb: software unless a GPU is present)\n",
                mean > 0 ? 1 / mean : 0);
  }

  // ---- Cleanup, in reverse order of setup ---------------------------------
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return exitCode;
}
