// The browser's platform layer (the WebAssembly build, web/CMakeLists.txt):
// the main loop (emscripten_set_main_loop), the canvas sized to its frame,
// files through the page (a picker, a dropped file, a download, a trace
// fetched from ?trace=URL), background work done at once (no threads
// without cross-origin isolation), and recordings in a Web Worker
// (web/umax-worker.js) so that the page never freezes. The page's script
// (web/index.html) calls the umax_web_* functions below; the app itself is
// the desktop's (drawFrame and the panels).
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <emscripten.h>
#include <emscripten/html5.h>
#include <imgui.h>
#include <imgui_internal.h>  // the tooltip window, for the page's state
#define GLFW_INCLUDE_ES3
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cfloat>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "app.h"
#include "platform.h"
#include "ui.h"
#include "umax/notation.h"
#include "umax/view/view_state.h"

namespace umax::viz {

namespace {

/// Chunks of events a background step reads (64 KB of records, some 44,000 events: 2-4 ms in
/// WebAssembly).
constexpr std::size_t kChunksPerSlice = 1;
/// The time the main loop gives the background tasks (indexing a trace) before each frame.
constexpr double kSliceMilliseconds = 8;

App* theApp = nullptr;
GLFWwindow* theWindow = nullptr;
double lastFrame = 0;
std::string lastState;
/// The current recording's worker has been told to stop (terminated).
bool stopSent = false;
/// The result of the last recording (for the page's state), empty before one ends.
std::string recordedResult;
/// A finger has just been lifted (the page's umax_web_finger_lifted) at the cursor `cursorAtLift`:
/// the mouse stays where the finger was, so that a tap on a name or a line shows its note, until
/// the cursor moves (a tapped > or Play stepped, a tooltip of > would otherwise stay up) or the
/// next touch starts.
bool fingerLifted = false;
uint64_t cursorAtLift = 0;

/// The event a query names (`text`: digits, checked by the page), -1 for none (empty). A number
/// beyond 64 bits or past LLONG_MAX becomes LLONG_MAX, which is outside every trace.
long long queryEvent(const char* text) {
  if (!*text) return -1;
  unsigned long long value = 0;
  const char* end = text + std::strlen(text);
  const auto [stop, error] = std::from_chars(text, end, value);
  if (error != std::errc() || stop != end || value > static_cast<unsigned long long>(LLONG_MAX))
    return LLONG_MAX;
  return static_cast<long long>(value);
}

std::string jsonString(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
          out += escaped;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

/// What the app shows, as JSON for the page's element id="umax-state": with a trace open, the
/// object `umax-trace state` prints at the cursor plus "trace" (its path) and "indexesReady";
/// then the recording under way, the last recording's result ("search": bestmove, score and
/// nodes; the view's own "nodes" are those counted up to the cursor), the message and the error.
std::string stateJson(App& app) {
  // The object `umax-trace state FILE --event N` prints at the cursor (the view model the panels
  // draw), then the page's own fields.
  std::string json = "{";
  if (app.hasTrace()) {
    json = trace::toJson(app.view());
    json.pop_back();  // its closing brace: the page's fields follow
    json += ",\"trace\":" + jsonString(app.trace()->path);
    json += ",\"indexesReady\":";
    json += app.trace()->treeBuild.ready && app.trace()->indexBuild.ready ? "true" : "false";
  }
  if (const Recording* job = app.recording())
    json += std::string(json.size() > 1 ? "," : "") +
            "\"recording\":{\"nodes\":" + std::to_string(job->nodes.load()) +
            ",\"draft\":" + std::to_string(job->draft.load()) + "}";
  if (!recordedResult.empty())
    json += std::string(json.size() > 1 ? "," : "") + "\"search\":{" + recordedResult + "}";
  // Where the panels (and the items a finger taps: tabs, step buttons) went in the last frame, and
  // the text's size: the browser tests check the layout of a phone from them.
  json += std::string(json.size() > 1 ? "," : "") + "\"compact\":" + (app.compact ? "true" : "false");
  json += ",\"fontSize\":" + std::to_string(std::lround(app.fontSize));
  // Whether a tooltip is up (Dear ImGui's tooltip window drew in the last frame).
  const ImGuiWindow* tip = ImGui::FindWindowByName("##Tooltip_00");
  json += std::string(",\"tooltip\":") + (tip && tip->Active ? "true" : "false");
  json += ",\"layout\":[";
  for (std::size_t i = 0; i < app.layout.size(); ++i) {
    const PanelRect& rect = app.layout[i];
    json += std::string(i ? "," : "") + "{\"name\":" + jsonString(rect.name) +
            ",\"x\":" + std::to_string(std::lround(rect.x)) +
            ",\"y\":" + std::to_string(std::lround(rect.y)) +
            ",\"w\":" + std::to_string(std::lround(rect.width)) +
            ",\"h\":" + std::to_string(std::lround(rect.height)) + "}";
  }
  json += "]";
  if (!app.message.empty())
    json += std::string(json.size() > 1 ? "," : "") + "\"message\":" + jsonString(app.message);
  if (!app.error().empty())
    json += std::string(json.size() > 1 ? "," : "") + "\"error\":" + jsonString(app.error());
  return json + "}";
}

/// The canvas follows the size of its frame (the page's #frame element, which the page sizes to
/// the window or the iframe).
void fitCanvasToFrame() {
  double width = 0, height = 0;
  if (emscripten_get_element_css_size("#frame", &width, &height) != EMSCRIPTEN_RESULT_SUCCESS) return;
  const int w = std::max(320, static_cast<int>(width));
  const int h = std::max(240, static_cast<int>(height));
  int current = 0, currentHeight = 0;
  glfwGetWindowSize(theWindow, &current, &currentHeight);
  if (current != w || currentHeight != h) glfwSetWindowSize(theWindow, w, h);
}

/// A recording whose Stop was pressed: the worker is ended at once (it cannot be interrupted
/// otherwise without shared memory), so the browser keeps no trace of a stopped search.
void stopRecordingIfAsked(App& app) {
  Recording* job = app.recording();
  if (!job || job->done || !job->stop || stopSent) return;
  stopSent = true;
  EM_ASM(umaxWeb.stopRecording());
  job->error = "stopped after " + std::to_string(job->nodes.load()) +
               " nodes (in the browser a stopped search keeps no trace: record it with a smaller budget)";
  job->failed = true;
  job->done = true;
}

void frame() {
  App& app = *theApp;
  fitCanvasToFrame();
  stopRecordingIfAsked(app);
  const double now = emscripten_get_now() / 1000.0;
  // While the worker searches, the page draws 10 frames a second (the progress, the Stop button):
  // drawing at the display's rate (software WebGL where there is no GPU) took the CPU the search
  // needs on a machine with few cores. A click between two frames is kept by ImGui's GLFW backend.
  if (const Recording* job = app.recording(); job && !job->done && now - lastFrame < 0.1) return;
  // A trace being indexed: a few steps of its passes, then the frame (which shows their progress).
  platform::runBackgroundSteps(kSliceMilliseconds);
  const double seconds = std::clamp(now - lastFrame, 0.0, 0.1);
  lastFrame = now;

  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  // Headless browsers' virtual time can stand still between frames: ImGui needs some time to pass.
  ImGuiIO& io = ImGui::GetIO();
  // After a tap that stepped, nothing is under the finger any more: its tooltip closes.
  if (fingerLifted && app.cursor() != cursorAtLift) io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  if (io.DeltaTime <= 0) io.DeltaTime = 1e-4f;
  ImGui::NewFrame();
  drawFrame(app, seconds);
  ImGui::Render();
  int width = 0, height = 0;
  glfwGetFramebufferSize(theWindow, &width, &height);
  glViewport(0, 0, width, height);
  glClearColor(0.09f, 0.09f, 0.11f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

  // File > Open (or Ctrl+O) opens the page's file picker instead of the path dialog.
  if (app.showOpen) {
    app.showOpen = false;
    EM_ASM(umaxWeb.pickFile());
  }
  app.quitRequested = false;  // a page is closed by its browser
  // For the benchmark (scripts/web-bench.sh): when the first frame, and the first with a trace, were drawn.
  static bool drawn = false, drawnWithTrace = false;
  if (!drawn) {
    drawn = true;
    EM_ASM(umaxWeb.firstFrame = performance.now());
  }
  if (!drawnWithTrace && app.hasTrace()) {
    drawnWithTrace = true;
    EM_ASM(umaxWeb.firstTraceFrame = performance.now());
  }
  const std::string state = stateJson(app);
  if (state != lastState) {
    lastState = state;
    EM_ASM({ umaxWeb.setState(UTF8ToString($0)); }, state.c_str());
  }
}

void openDropped(GLFWwindow*, int count, const char** paths) {
  if (count > 0) theApp->openTrace(paths[0]);
}

}  // namespace

namespace platform {

namespace {

/// The background tasks with steps to run, in the order they started.
std::vector<BackgroundTask*> pendingTasks;

void forget(BackgroundTask* task) { std::erase(pendingTasks, task); }

}  // namespace

void runBackgroundSteps(double milliseconds) {
  const double end = emscripten_get_now() + milliseconds;
  while (!pendingTasks.empty() && emscripten_get_now() < end) {
    for (std::size_t index = 0; index < pendingTasks.size() && emscripten_get_now() < end;) {
      BackgroundTask* task = pendingTasks[index];
      if (task->step_(kChunksPerSlice)) {
        ++index;
      } else {
        task->step_ = nullptr;
        pendingTasks.erase(pendingTasks.begin() + static_cast<std::ptrdiff_t>(index));
      }
    }
  }
}

void BackgroundTask::start(Step step) {
  step_ = std::move(step);
  pendingTasks.push_back(this);
  runBackgroundSteps(kSliceMilliseconds);  // a short trace is complete before its first frame
}

bool BackgroundTask::joinable() const { return static_cast<bool>(step_); }

void BackgroundTask::join() {
  forget(this);
  while (step_ && step_(kChunksPerSlice)) {
  }
  step_ = nullptr;
}

BackgroundTask::~BackgroundTask() { forget(this); }

void startRecording(Recording& job, const std::string& fen, const std::string& moves, long nodes) {
  stopSent = false;
  recordedResult.clear();
  EM_ASM({ umaxWeb.startRecording(UTF8ToString($0), UTF8ToString($1), $2, UTF8ToString($3)); }, fen.c_str(),
         moves.c_str(), static_cast<double>(nodes), job.path.c_str());
}

void fileMenuItems(App& app) {
  if (ImGui::MenuItem("Save trace (download)", nullptr, false, app.hasTrace()))
    EM_ASM({ umaxWeb.save(UTF8ToString($0)); }, app.trace()->path.c_str());
}

}  // namespace platform
}  // namespace umax::viz

// ---- called by the page's script (web/index.html) ------------------------------

extern "C" {

/// Opens the trace at `path` (in the page's file system) just after the event `eventText` names,
/// numbered from 0 (digits, the page checked them; empty: before the first event). A number past
/// the trace, however many digits it has (18446744073709551616 is 2^64), is refused by name.
EMSCRIPTEN_KEEPALIVE int umax_web_open(const char* path, const char* eventText) {
  umax::viz::App& app = *umax::viz::theApp;
  if (!app.openTrace(path)) return 0;
  const long long event = umax::viz::queryEvent(eventText);
  if (event >= 0) {
    const auto wanted = static_cast<uint64_t>(event);
    if (wanted < app.eventCount()) {
      app.seek(umax::trace::cursorAfterEvent(wanted));  // just after event `wanted`, as umax-viz --event
    } else {
      app.setError(std::string("event=") + eventText +
                   " is outside the trace: its events are numbered 0 to " +
                   std::to_string(app.eventCount() - 1));
      return 0;
    }
  }
  return 1;
}

/// Records a think of `nodes` nodes (in the worker) and opens it at the event `eventText` names
/// (as umax_web_open's; empty: the start).
EMSCRIPTEN_KEEPALIVE void umax_web_record(const char* fen, const char* moves, double nodes,
                                          const char* eventText) {
  umax::viz::App& app = *umax::viz::theApp;
  app.recordingEvent = umax::viz::queryEvent(eventText);
  app.recordingEventText = *eventText ? std::string("event=") + eventText : "";
  app.startRecording(fen, moves, static_cast<long>(nodes), "/tmp/recorded.trc");
}

EMSCRIPTEN_KEEPALIVE void umax_web_recording_progress(double nodes, int draft) {
  if (umax::viz::Recording* job = umax::viz::theApp->recording()) {
    job->nodes = static_cast<uint64_t>(nodes);
    job->draft = draft;
  }
}

/// The worker's answer: the trace is already in the file system at the job's path (when ok).
EMSCRIPTEN_KEEPALIVE void umax_web_recording_finished(int ok, const char* error, int from, int to, int score,
                                                      double nodes, int depth, int iterations) {
  umax::viz::Recording* job = umax::viz::theApp->recording();
  if (!job || job->done) return;
  if (ok) {
    job->result.from = from;
    job->result.to = to;
    job->result.score = score;
    job->result.nodes = static_cast<long>(nodes);
    job->result.depth = depth;
    job->result.completedIterations = iterations;
    umax::viz::recordedResult = "\"bestmove\":" + umax::viz::jsonString(umax::thinkMoveName(from, to)) +
                                ",\"score\":" + std::to_string(score) +
                                ",\"nodes\":" + std::to_string(static_cast<long long>(nodes));
  } else {
    job->error = error;
    job->failed = true;
  }
  job->done = true;
}

/// A problem the page found (a bad query value, a trace that could not be fetched).
EMSCRIPTEN_KEEPALIVE void umax_web_set_error(const char* message) { umax::viz::theApp->setError(message); }

/// A character typed while a text field has the keyboard, whose key the page kept from the
/// browser (Space would scroll the page).
EMSCRIPTEN_KEEPALIVE void umax_web_add_char(int c) {
  ImGui::GetIO().AddInputCharacter(static_cast<unsigned>(c));
}

/// True while a text field has the keyboard (the page then lets Space type).
EMSCRIPTEN_KEEPALIVE int umax_web_wants_text() { return ImGui::GetIO().WantTextInput ? 1 : 0; }

/// A finger touched the canvas (1) or left it (0); see fingerLifted.
EMSCRIPTEN_KEEPALIVE void umax_web_finger(int down) {
  umax::viz::fingerLifted = down == 0;
  umax::viz::cursorAtLift = umax::viz::theApp->cursor();
}

}  // extern "C"

int main() {
  using namespace umax::viz;
  theApp = new App("/src");  // the sources the Source panel shows are packed into the .data file
  for (const std::string& problem : theApp->lineMap().problems())
    std::fprintf(stderr, "umax-viz: %s\n", problem.c_str());
  // The legend starts hidden, as on the desktop (it covers part of the Source panel); the menu bar
  // says "L: legend".

  if (!glfwInit()) {
    std::fprintf(stderr, "umax-viz: cannot initialise GLFW\n");
    return 1;
  }
  double width = 1280, height = 800;
  emscripten_get_element_css_size("#frame", &width, &height);
  theWindow = glfwCreateWindow(std::max(320, static_cast<int>(width)),
                               std::max(240, static_cast<int>(height)), "umax-viz", nullptr, nullptr);
  if (!theWindow) {
    EM_ASM(umaxWeb.fail("This browser cannot give the page WebGL 2, which umax-viz draws with."));
    return 1;
  }
  glfwMakeContextCurrent(theWindow);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.ConfigFlags &= ~ImGuiConfigFlags_NavEnableKeyboard;  // the arrow keys step the search
  applyStyle();
  ImGui_ImplGlfw_InitForOpenGL(theWindow, true);
  ImGui_ImplOpenGL3_Init("#version 300 es");
  loadFonts(*theApp);
  glfwSetDropCallback(theWindow, openDropped);

  lastFrame = emscripten_get_now() / 1000.0;
  EM_ASM(umaxWeb.started());
  emscripten_set_main_loop(frame, 0, false);
  return 0;
}
