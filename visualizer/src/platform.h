// What differs between the desktop and the browser, behind one small
// interface: work beside the window, recording a think, and the File menu's
// platform items. platform_desktop.cpp implements it with threads and files;
// platform_web.cpp (the WebAssembly build, web/) with a Web Worker, the
// page's file picker and downloads, and also holds the browser's main loop.
#pragma once

#include <functional>
#include <string>
#include <thread>

namespace umax::viz {

class App;
struct Recording;

namespace platform {

/// Work done beside the window. On the desktop a thread of lower priority (nice 10), so that
/// scrubbing stays smooth while it runs; in the browser (no threads without cross-origin
/// isolation) the work runs to its end inside start().
class BackgroundTask {
 public:
  void start(std::function<void()> work);
  bool joinable() const { return thread_.joinable(); }
  void join() { thread_.join(); }

 private:
  std::thread thread_;
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
