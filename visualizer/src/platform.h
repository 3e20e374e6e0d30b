// What differs between the desktop and the browser, behind one small
// interface: work beside the window, recording a think, and the File menu's
// platform items. platform_desktop.cpp implements it with threads and files;
// platform_web.cpp (the WebAssembly build, web/) with a Web Worker, the
// page's file picker and downloads, and also holds the browser's main loop.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <thread>

namespace umax::viz {

class App;
struct Recording;

namespace platform {

/// Work done beside the window, in steps: `step(chunks)` does a little more (a pass over at most
/// `chunks` chunks of a trace's events) and returns true while work remains. On the desktop a
/// thread of lower priority (nice 10) runs the steps to the end, so that scrubbing stays smooth; in
/// the browser (no threads without cross-origin isolation) the main loop runs a few steps before
/// each frame, within a time budget, so that the page keeps drawing.
class BackgroundTask;

/// Browser: runs steps of the started background tasks, in turn, for about `milliseconds` (the
/// main loop calls it before each frame). The desktop's tasks run on their threads instead.
void runBackgroundSteps(double milliseconds);

class BackgroundTask {
 public:
  using Step = std::function<bool(std::size_t chunks)>;
  void start(Step step);
  bool joinable() const;
  /// Waits for the work to end (in the browser: runs its remaining steps).
  void join();
  ~BackgroundTask();

 private:
  friend void runBackgroundSteps(double milliseconds);
  std::thread thread_;  // desktop
  Step step_;           // browser: the work not done yet (empty when done)
};

/// Starts recording the think `job` describes (its path, budget): the search runs beside the
/// window, reports its progress into job.nodes / job.draft, and sets job.result (or job.error and
/// job.failed) and then job.done. Desktop: a thread of this process; browser: a Web Worker (the
/// engine and recorder in a second WebAssembly instance).
void startRecording(Recording& job, const std::string& fen, const std::string& moves, long nodes);

/// The File menu's items that only one platform has (the browser's "Save trace").
void fileMenuItems(App& app);

}  // namespace platform
}  // namespace umax::viz
