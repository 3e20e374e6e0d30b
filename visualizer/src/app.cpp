// The view model: opening traces, recording, the cursor's actions.
#include "app.h"

#include <imgui.h>

#include <chrono>
#include <climits>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <optional>
#include <sstream>

#include "umax/numbers.h"

namespace umax::viz {

double threadCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return double(now.tv_sec) + double(now.tv_nsec) * 1e-9;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

namespace {

/// Starts `build`: at its first step its task makes a builder with `make` (the build is timed from
/// there), then runs the builder's steps until it is done, hands it to `finish` and sets
/// build.ready; an exception sets build.error and build.failed. Closing the trace abandons the
/// build at its next step: nobody waits for it.
template <class Make, class Finish>
void startBuild(IndexBuild& build, const std::atomic<bool>& closing, Make make, Finish finish) {
  using Builder = typename decltype(make())::element_type;
  // The builder lives in the task's step function, which must be copyable: hence the shared_ptr.
  auto builder = std::make_shared<std::unique_ptr<Builder>>();
  build.task.start([&build, &closing, builder, make = std::move(make), finish = std::move(finish),
                    start = std::chrono::steady_clock::time_point{},
                    cpuStart = -1.0](std::size_t chunks) mutable {
    try {
      if (closing) return false;
      if (!*builder) {
        start = std::chrono::steady_clock::now();
        cpuStart = threadCpuSeconds();
        *builder = make();
      }
      (*builder)->step(chunks);
      build.progress = (*builder)->share();
      if (!(*builder)->done()) return true;
      finish(**builder);
      builder->reset();
      build.seconds = secondsSince(start);
      build.cpuSeconds = threadCpuSeconds() - cpuStart;
      build.ready = true;
    } catch (const std::exception& failure) {
      build.error = failure.what();
      build.failed = true;
    }
    return false;
  });
}

}  // namespace

LoadedTrace::~LoadedTrace() {
  closing = true;  // the builds stop within one progress step (well under a second)
  treeBuild.wait();
  indexBuild.wait();
}

Recording::~Recording() {
  stop = true;  // closing the app does not wait for the think to end
  if (thread.joinable()) thread.join();
  std::error_code ignored;
  if (temporary) std::filesystem::remove(path, ignored);
}

App::App(std::string sourceDir) : sourceDir_(std::move(sourceDir)) { lineMap_.load(sourceDir_); }

// ---- trace and recording ---------------------------------------------------

bool App::openTrace(const std::string& path, bool buildInBackground) {
  auto loaded = std::make_unique<LoadedTrace>();
  loaded->path = path;
  const auto start = std::chrono::steady_clock::now();
  const double cpuStart = threadCpuSeconds();
  try {
    loaded->reader = std::make_unique<trace::TraceReader>(path);
    loaded->replay = std::make_unique<trace::Replay>(*loaded->reader);
  } catch (const std::exception& failure) {
    // The reader's own message may already say "cannot open" with the path: say it once.
    const std::string reason = failure.what();
    error_ = reason.rfind("cannot open", 0) == 0 ? reason : "cannot open " + path + ": " + reason;
    return false;
  }
  loaded->openSeconds = secondsSince(start);
  loaded->openCpuSeconds = threadCpuSeconds() - cpuStart;
  error_.clear();
  playing = false;
  message = loaded->reader->truncated() ? "truncated trace: " + loaded->reader->truncationNote() : "";
  trace_ = std::move(loaded);
  ++traceGeneration;
  pathCursor_ = UINT64_MAX;
  touched();
  if (buildInBackground) startIndexing(*trace_);
  return true;
}

bool App::openCompared(const std::string& path) {
  auto compared = std::make_unique<ComparedTrace>();
  compared->path = path;
  try {
    compared->reader = std::make_unique<trace::TraceReader>(path);
    compared->tree = std::make_unique<trace::CallTree>(*compared->reader);
  } catch (const std::exception& failure) {
    error_ = "cannot compare with " + path + ": " + failure.what();
    return false;
  }
  compared_ = std::move(compared);
  return true;
}

ComparedTrace* App::compared() {
  if (!compared_ || !hasTrace()) return nullptr;
  if (compared_->comparedWith != traceGeneration) {  // the open trace changed: compare again
    compared_->comparedWith = traceGeneration;
    try {
      compared_->comparison = trace::compareTraces(*trace_->reader, *compared_->reader);
      compared_->error.clear();
    } catch (const std::exception& failure) {
      compared_->error = failure.what();
    }
  }
  return compared_.get();
}

void App::swapCompared() {
  if (!compared_ || !hasTrace()) return;
  const std::string stepped = trace_->path;
  if (!openTrace(compared_->path)) return;  // opens at the start, as any trace
  openCompared(stepped);
}

void App::startIndexing(LoadedTrace& loaded) {
  // One background task builds the call tree, another the hash history and the timeline index
  // (each one pass over the events, a step of a few chunks at a time); the UI polls the ready flags.
  startBuild(
      loaded.treeBuild, loaded.closing,
      [&loaded] { return std::make_unique<trace::CallTreeBuilder>(*loaded.reader); },
      [&loaded](trace::CallTreeBuilder& builder) { loaded.tree = builder.take(); });
  startBuild(
      loaded.indexBuild, loaded.closing,
      [&loaded] {
        loaded.hash =
            std::make_unique<trace::HashHistory>(loaded.reader->header(), loaded.reader->eventCount());
        loaded.timeline = std::make_unique<trace::TimelineIndex>(loaded.reader->eventCount());
        return std::make_unique<trace::HistoriesBuilder>(*loaded.reader, *loaded.hash, *loaded.timeline);
      },
      [](trace::HistoriesBuilder&) {});
}

void App::waitForIndexes() {
  if (!trace_) return;
  trace_->treeBuild.wait();
  trace_->indexBuild.wait();
}

void App::startRecording(const std::string& fen, const std::string& moves, long nodes,
                         const std::string& output, bool temporary) {
  if (recording_ && !recording_->done) return;
  recording_ = std::make_unique<Recording>();
  Recording& job = *recording_;
  job.path = output;
  job.temporary = temporary;
  job.budget = nodes;
  platform::startRecording(job, fen, moves, nodes);
}

void App::update(double seconds) {
  if (recording_ && recording_->done) {
    if (recording_->thread.joinable()) recording_->thread.join();
    if (recording_->failed) {
      error_ = "recording failed: " + recording_->error;
    } else if (openTrace(recording_->path)) {
      if (recording_->result.aborted)
        message = "recording stopped after " + std::to_string(recording_->result.nodes) +
                  " nodes: the trace holds the search up to the stop";
      if (recordingEvent >= 0) seekRecordingEvent();
    }
    recording_.reset();
  }
  if (playing && hasTrace()) {
    playCarry_ += seconds * speed;
    const auto steps = static_cast<uint64_t>(playCarry_);
    playCarry_ -= static_cast<double>(steps);
    if (steps > 0) {
      seek(cursor() + steps);
      if (cursor() >= eventCount()) playing = false;
    }
  } else {
    playCarry_ = 0;
  }
}

void App::seekRecordingEvent() {
  const auto event = static_cast<uint64_t>(recordingEvent);
  const std::string asked =
      recordingEventText.empty() ? "--event " + std::to_string(event) : recordingEventText;
  recordingEvent = -1;
  recordingEventText.clear();
  if (event < eventCount())
    seek(trace::cursorAfterEvent(event));
  else
    message =
        asked + " is outside the trace: its events are numbered 0 to " + std::to_string(eventCount() - 1);
}

bool App::busy() const { return playing || recording_ || indexesBuilding(); }

bool App::indexesBuilding() const {
  return trace_ && (trace_->treeBuild.building() || trace_->indexBuild.building());
}

// ---- the cursor ------------------------------------------------------------

void App::touched() { ++cursorGeneration; }

// Every move of the cursor reads the trace: a damaged record (a large
// file's chunks are checked when first decoded) is said in the message
// line, and the view shows the start, where the replay went back.
bool App::survived(const std::function<void()>& move) {
  try {
    move();
    return true;
  } catch (const trace::TraceError& damage) {
    message = std::string("damaged trace: ") + damage.what() + "; back at the start";
    touched();
    return false;
  }
}

void App::seek(uint64_t applied) {
  if (!hasTrace()) return;
  if (survived([&] { replay().seek(applied); })) touched();
}

void App::stepForward() {
  if (!hasTrace()) return;
  survived([&] {
    if (replay().stepForward()) touched();
  });
}
void App::stepBack() {
  if (!hasTrace()) return;
  survived([&] {
    if (replay().stepBack()) touched();
  });
}
trace::Navigator App::navigator() {
  trace::Navigator navigator(replay(), trace_->readyTree(), trace_->readyTimeline());
  navigator.limitScan(kScanLimit);
  return navigator;
}

std::string App::indexingMessage() const {
  const LoadedTrace& loaded = *trace_;
  if (loaded.treeBuild.ready && loaded.indexBuild.ready)
    return "not found within " + std::to_string(kScanLimit) + " events of scanning";
  char text[160];
  std::snprintf(text, sizeof text,
                "indexing... call tree %.0f%%, hash index %.0f%%: in a trace this long this jump needs them",
                100 * loaded.treeBuild.progress.load(), 100 * loaded.indexBuild.progress.load());
  return text;
}

void App::navigate(bool (trace::Navigator::*move)(), const char* none) {
  if (!hasTrace()) return;
  trace::Navigator navigator = this->navigator();
  bool moved = false;
  if (!survived([&] { moved = (navigator.*move)(); })) return;
  if (navigator.gaveUp()) {
    message = indexingMessage();
    return;
  }
  message = moved || !none ? "" : none;
  if (moved) touched();
}

void App::stepOver() { navigate(&trace::Navigator::stepOver, nullptr); }
void App::stepOut() { navigate(&trace::Navigator::stepOut, nullptr); }
void App::nextCutoff() { navigate(&trace::Navigator::nextCutoff, "no cutoff after this event"); }
void App::nextHashHit() { navigate(&trace::Navigator::nextHashHit, "no hash hit after this event"); }
void App::nextIteration() {
  navigate(&trace::Navigator::nextIteration, "no root iteration after this event");
}
void App::previousIteration() {
  navigate(&trace::Navigator::previousIteration, "no root iteration before this event");
}

void App::findNode(const std::string& text) {
  if (!hasTrace()) return;
  const std::optional<long long> parsed = parseWhole(text, 0, LLONG_MAX);
  if (!parsed) {
    message = "node number expected, e.g. 1234";
    return;
  }
  const auto number = static_cast<unsigned long long>(*parsed);
  trace::Navigator navigator = this->navigator();
  bool found = false;
  if (!survived([&] { found = navigator.findNode(number); })) return;
  message = navigator.gaveUp() ? indexingMessage()
            : found            ? "node " + text
                               : "no node " + text + " in this trace";
  if (found) touched();
}

void App::findLine(const std::string& text) {
  if (!hasTrace()) return;
  std::istringstream stream(text);
  trace::MoveLine moves;
  std::string word;
  while (stream >> word) {
    int from = 0;
    int to = 0;
    if (!parseMove(word, from, to)) {
      message = "'" + word + "' is not a move like e2e4";
      return;
    }
    moves.emplace_back(from, to);
  }
  trace::Navigator navigator = this->navigator();
  std::optional<uint32_t> call;
  if (!survived([&] { call = navigator.findLine(moves); })) return;
  if (call) {
    message = "line " + text + ": call #" + std::to_string(*call);
    touched();
  } else if (navigator.gaveUp()) {
    message = indexingMessage();
  } else {
    message = "the search never played " + text + " from the root";
  }
}

int App::currentSite() {
  if (!hasTrace()) return 0;
  return view().site;
}

const std::vector<uint32_t>& App::currentPath() {
  const trace::CallTree* tree = hasTrace() ? trace_->readyTree() : nullptr;
  if (!tree) {
    path_.clear();
    pathHadTree_ = false;
    return path_;
  }
  if (pathCursor_ == cursor() && pathTrace_ == traceGeneration && pathHadTree_) return path_;
  pathCursor_ = cursor();
  pathTrace_ = traceGeneration;
  pathHadTree_ = true;
  path_.clear();
  for (const trace::Frame& frame : replay().state().stack())
    if (auto call = tree->findByCallEvent(frame.callEvent)) path_.push_back(*call);
  // After a return, show the call that just returned as the current one.
  if (const trace::Event* event = replay().lastEvent(); event && event->kind == trace::EventKind::kReturn) {
    const uint32_t call = tree->callAt(cursor() - 1);
    if (path_.empty() || path_.back() != call) path_.push_back(call);
  } else if (event && event->kind == trace::EventKind::kMoveScored && cursor() >= 2 &&
             replay().eventAt(cursor() - 2).kind == trace::EventKind::kReturn) {
    // A move just scored: its reply's call (which returned just before) stays the row in view,
    // rather than the tree jumping back to the scoring call's row (the root's, at ply 0).
    const uint32_t call = tree->callAt(cursor() - 2);
    if (path_.empty() || path_.back() != call) path_.push_back(call);
  }
  return path_;
}

const trace::ViewState& App::view() {
  if (!hasTrace()) {
    view_ = trace::ViewState{};
    viewTrace_ = UINT64_MAX;
    return view_;
  }
  const trace::TimelineIndex* timeline = trace_->readyTimeline();
  if (viewCursorGeneration_ == cursorGeneration && viewTrace_ == traceGeneration &&
      viewIndexed_ == (timeline != nullptr))
    return view_;
  if (viewTrace_ != traceGeneration) {
    counters_ = {};
    countersCursor_ = 0;
    countersKnown_ = true;
  }
  viewCursorGeneration_ = cursorGeneration;
  viewTrace_ = traceGeneration;
  viewIndexed_ = timeline != nullptr;
  const uint64_t target = cursor();
  if (timeline) {
    counters_ = trace::hashCountersAt(replay(), target, *timeline);
    countersCursor_ = target;
    countersKnown_ = true;
  } else if (countersKnown_ && (target > countersCursor_ ? target - countersCursor_
                                                         : countersCursor_ - target) <= kScanLimit / 10) {
    // Count the events between the last cursor and this one, forward or back (at most about
    // 0.01 s of reading: a longer jump waits for the index).
    for (; countersCursor_ < target; ++countersCursor_) counters_.count(replay().eventAt(countersCursor_));
    for (; countersCursor_ > target; --countersCursor_)
      counters_.count(replay().eventAt(countersCursor_ - 1), -1);
  } else {
    countersKnown_ = false;  // until the timeline index is ready
  }
  view_ = trace::viewState(replay(), counters_);
  view_.hashCounted = countersKnown_;
  return view_;
}

void App::recordPanel(const char* name) {
  const ImVec2 pos = ImGui::GetWindowPos();
  const ImVec2 size = ImGui::GetWindowSize();
  layout.push_back({name, pos.x, pos.y, size.x, size.y});
}

void App::recordItem(const std::string& name) {
  const ImVec2 low = ImGui::GetItemRectMin(), high = ImGui::GetItemRectMax();
  layout.push_back({name, low.x, low.y, high.x - low.x, high.y - low.y, true});
}

// ---- helpers ---------------------------------------------------------------

std::string scoreText(int score) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%+d", score);
  return buffer;
}

const char* sideName(int side) { return side == kBlack ? "black" : "white"; }

}  // namespace umax::viz
