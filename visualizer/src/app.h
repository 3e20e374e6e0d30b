// The visualizer's view model: the open trace (reader, replay model, and
// the call tree and hash history built in the background), a recording in
// progress, the line map, and the state of the controls. Panels read it and
// call its actions; none of them touches trace bytes.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "line_map.h"
#include "platform.h"
#include "umax/notation.h"
#include "umax/trace/reader.h"
#include "umax/trace/replay.h"
#include "umax/view/call_tree.h"
#include "umax/view/compare.h"
#include "umax/view/hash_history.h"
#include "umax/view/navigator.h"
#include "umax/view/view_state.h"

struct ImFont;

namespace umax::viz {

/// An index built beside the window (platform::BackgroundTask): how far it
/// got, whether it is ready or failed, and what it cost. App::startIndexing
/// starts one for the call tree and one for the hash history and timeline.
struct IndexBuild {
  platform::BackgroundTask task;
  std::atomic<double> progress{0};  ///< share of the events passed, 0 to 1
  std::atomic<bool> ready{false};
  std::atomic<bool> failed{false};
  std::string error;      ///< written before failed is set
  double seconds = 0;     ///< wall time of the build
  double cpuSeconds = 0;  ///< CPU time of the same (load-independent)
  bool building() const { return !ready && !failed; }
  /// Waits for the build to end (in the browser: runs its remaining steps).
  void wait() {
    if (task.joinable()) task.join();
  }
};

/// An open trace. The reader and the replay model are ready at once; the
/// call tree and the hash/timeline index are built in the background and
/// published through their builds' ready flags.
struct LoadedTrace {
  std::string path;
  std::unique_ptr<trace::TraceReader> reader;
  std::unique_ptr<trace::Replay> replay;
  double openSeconds = 0;     ///< mmap + checks + replay model
  double openCpuSeconds = 0;  ///< CPU time of the same (load-independent)

  IndexBuild treeBuild;   ///< builds the call tree
  IndexBuild indexBuild;  ///< builds the hash history and timeline index
  /// Set when the trace is closed (another one opened, or the app quits):
  /// the background builds stop at their next progress report.
  std::atomic<bool> closing{false};
  std::unique_ptr<trace::CallTree> tree;
  std::unique_ptr<trace::HashHistory> hash;
  std::unique_ptr<trace::TimelineIndex> timeline;

  ~LoadedTrace();
  const trace::CallTree* readyTree() const { return treeBuild.ready ? tree.get() : nullptr; }
  const trace::HashHistory* readyHash() const { return indexBuild.ready ? hash.get() : nullptr; }
  const trace::TimelineIndex* readyTimeline() const { return indexBuild.ready ? timeline.get() : nullptr; }
};

/// A think being recorded into a trace file beside the window (platform::startRecording).
struct Recording {
  std::string path;
  bool temporary = false;  ///< a file of ours in the temporary folder: deleted once open (or failed)
  long budget = 0;
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  std::thread thread;  ///< the desktop's recording thread (the browser uses a Web Worker)
  std::atomic<uint64_t> nodes{0};
  std::atomic<int> draft{0};
  std::atomic<bool> done{false};
  std::atomic<bool> failed{false};
  /// The think's stop flag (the Stop button, or the app closing): the
  /// search ends at its next node and the trace is finished as it stands.
  std::atomic<bool> stop{false};
  ThinkResult result;  ///< the think's result (aborted: the stop flag ended it), written before done is set
  std::string error;   ///< written before failed/done are set
  ~Recording();
};

/// A second trace shown beside the open one (umax-viz A.trc --compare B.trc): read whole when
/// opened (its call tree and the comparison with the open trace, compare.h), then only shown.
struct ComparedTrace {
  std::string path;
  std::unique_ptr<trace::TraceReader> reader;
  std::unique_ptr<trace::CallTree> tree;
  trace::TraceComparison comparison;   ///< the open trace as A, this one as B
  uint64_t comparedWith = UINT64_MAX;  ///< the App::traceGeneration `comparison` was made with
  std::string error;                   ///< why the comparison failed ("" if it did not)
};

/// Where a panel was drawn in the last frame (for --layout-dump).
struct PanelRect {
  std::string name;
  float x = 0, y = 0, width = 0, height = 0;
  /// Not a panel but a text inside one ("Board / caption"): umax-viz-check finds it cut when it
  /// reaches past its panel.
  bool text = false;
};

/// The most events a key's move (step over, next cutoff, find, ...) scans on the UI thread before
/// the indexes are ready: about 0.1 s of decoding. A longer search waits for the indexes (the move
/// says "indexing... N%") instead of freezing the window for seconds.
inline constexpr uint64_t kScanLimit = 2'000'000;

/// Headless frames (--screenshot, --bench) of a trace with at most this many events show the
/// finished indexes (they take well under a second); a longer trace's frames show them as far as
/// they got, unless --wait-for-indexes asks to wait.
inline constexpr uint64_t kHeadlessWaitEvents = 10'000'000;

/// A window narrower than this (in pixels; in the browser, CSS pixels) is drawn in the compact
/// layout (App::compact): a phone, or a tablet held upright.
inline constexpr float kCompactWidth = 800;

/// The whole state of the application.
class App {
 public:
  explicit App(std::string sourceDir);

  // ---- trace and recording ------------------------------------------------
  /// Opens `path` (replacing the open trace). On failure keeps the old one,
  /// sets error() and returns false.
  bool openTrace(const std::string& path, bool buildInBackground = true);
  /// Starts recording a think in the background; the trace opens when done.
  /// A `temporary` output is deleted as soon as it is open (the mapping
  /// keeps its bytes) or has failed, and by ~Recording if never opened.
  void startRecording(const std::string& fen, const std::string& moves, long nodes, const std::string& output,
                      bool temporary = false);
  /// Waits for the background work of the open trace (headless modes).
  void waitForIndexes();
  LoadedTrace* trace() { return trace_.get(); }
  /// Opens `path` as the trace compared with the open one (--compare); false and error() if it
  /// cannot be read.
  bool openCompared(const std::string& path);
  /// The compared trace, its comparison made against the open trace (null: none).
  ComparedTrace* compared();
  /// The compared trace becomes the one stepped, and the stepped one the compared.
  void swapCompared();
  Recording* recording() { return recording_.get(); }
  const std::string& error() const { return error_; }
  void setError(std::string message) { error_ = std::move(message); }
  LineMap& lineMap() { return lineMap_; }

  // ---- the cursor and stepping --------------------------------------------
  bool hasTrace() const { return trace_ && trace_->replay; }
  trace::Replay& replay() { return *trace_->replay; }
  uint64_t cursor() const { return hasTrace() ? trace_->replay->cursor() : 0; }
  uint64_t eventCount() const { return hasTrace() ? trace_->replay->eventCount() : 0; }
  void seek(uint64_t applied);
  void stepForward();
  void stepBack();
  // The search's named moves: trace::Navigator with the indexes that are ready.
  void stepOver();
  void stepOut();
  void nextCutoff();
  void nextHashHit();
  void nextIteration();
  void previousIteration();
  /// Finds node `text` (a number) or a line of moves ("e2e4 e7e5").
  void findNode(const std::string& text);
  void findLine(const std::string& text);

  /// What the panels show at the cursor (umax::trace::viewState), remade when the cursor moves.
  /// Its hash counters are those up to the cursor; view().hashCounted is false while they are
  /// unknown (a long jump in a large trace before the timeline index is ready).
  const trace::ViewState& view();

  /// The SearchSite of the event just applied (0 = none).
  int currentSite();
  /// The tree nodes of the open calls, root first (empty until the tree is ready).
  const std::vector<uint32_t>& currentPath();

  /// Called once per frame before the panels: recording, playback, loading.
  void update(double seconds);
  /// True while something changes without input (playback, a recording, the
  /// background indexes): the window must be redrawn continuously.
  bool busy() const;
  /// True while a background index of the open trace is still being built.
  bool indexesBuilding() const;

  // ---- control state ------------------------------------------------------
  bool playing = false;
  float speed = 200.0f;  ///< events per second while playing
  bool showHelp = false;
  bool showLegend = false;     ///< off at start (it covers the Source); the menu bar says "L: legend"
  bool quitRequested = false;  ///< File > Quit or Ctrl+Q: the loop ends after this frame
  bool showOpen = false;
  bool showRecord = false;
  bool followCursor = true;  ///< the tree and sources scroll to the cursor
  char openPath[512] = {};
  char findNodeText[32] = {};
  char findLineText[128] = {};
  char recordFen[128] = {};
  char recordMoves[256] = {};
  int recordNodes = 20000;
  /// The event to open a recording at once it is done (--event with --nodes); -1: the start.
  long long recordingEvent = -1;
  /// How that event was asked for, named in the message when it is outside the recording ("event=5"
  /// on the web page, which may hold digits past 64 bits); empty: "--event N".
  std::string recordingEventText;
  std::string message;  ///< the result of the last jump/find

  // Fonts (set by main): the board's piece font, and the larger text font of the compact layout.
  ImFont* pieceFont = nullptr;
  ImFont* largeFont = nullptr;

  // ---- the compact layout: a window narrower than kCompactWidth (a phone) -----
  // One panel at a time under a row of tabs, the Timeline below it, larger text and buttons
  // (frame.cpp).
  bool compact = false;                     ///< this frame is drawn in the compact layout
  std::string compactPanel = "Board";       ///< the panel shown under the tabs
  std::vector<std::string> compactOffered;  ///< the panels that asked to be drawn in the last frame
  bool relayout = false;                    ///< the layout changed: every panel goes to its place again
  float fontSize = 13;                      ///< the height of the text in the last frame, in pixels
  /// The default layout's Timeline: the height its buttons (however many rows they wrap into) and
  /// the lines of some 300 characters of narration need, measured as it was drawn, and the height
  /// it was given.
  float timelineNeeds = 0;
  float timelineHeight = 0;

  /// Rectangles of the panels drawn in this frame.
  std::vector<PanelRect> layout;
  void recordPanel(const char* name);
  /// Records the last item drawn (a tab, a button) as "PANEL / WHAT" in the layout (a text entry:
  /// the dump shows where a finger must land, and umax-viz-check that it is not cut).
  void recordItem(const std::string& name);
  /// Incremented whenever the cursor moves (panels use it to scroll).
  uint64_t cursorGeneration = 0;
  /// Incremented whenever a trace is opened (panels reset their views).
  uint64_t traceGeneration = 0;

 private:
  void touched();
  /// A navigator over the replay with the indexes ready now, its scans limited to kScanLimit.
  trace::Navigator navigator();
  /// What a move that gave up at the scan limit says (how far the indexes are).
  std::string indexingMessage() const;
  /// Runs `move`; a TraceError becomes the message (false).
  bool survived(const std::function<void()>& move);
  /// Runs a navigator move; sets `message` to `none` (if given) when it finds nothing.
  void navigate(bool (trace::Navigator::*move)(), const char* none);
  void startIndexing(LoadedTrace& loaded);
  /// Moves the cursor of a just-recorded trace to recordingEvent (or says it is outside).
  void seekRecordingEvent();

  std::string sourceDir_;
  LineMap lineMap_;
  std::unique_ptr<LoadedTrace> trace_;
  std::unique_ptr<Recording> recording_;
  std::unique_ptr<ComparedTrace> compared_;
  std::string error_;
  double playCarry_ = 0;
  uint64_t pathCursor_ = UINT64_MAX;
  uint64_t pathTrace_ = UINT64_MAX;
  bool pathHadTree_ = false;
  std::vector<uint32_t> path_;
  // The view model at the cursor, and the hash counters it was made with.
  trace::ViewState view_;
  uint64_t viewCursorGeneration_ = UINT64_MAX;
  uint64_t viewTrace_ = UINT64_MAX;
  bool viewIndexed_ = false;
  trace::HashCounters counters_;
  uint64_t countersCursor_ = 0;
  bool countersKnown_ = false;
};

// ---- helpers shared by the panels ----------------------------------------

/// A score for display ("+12", "-80000 (mated)" is left to callers).
std::string scoreText(int score);
/// "white" / "black" for a side code 8 / 16.
const char* sideName(int side);
/// CPU time of the calling thread: a cost without the waits of a loaded machine.
double threadCpuSeconds();
/// Wall time since `start`.
double secondsSince(std::chrono::steady_clock::time_point start);

}  // namespace umax::viz
