// What umax-viz does without a visible window: --bench renders frames while
// the cursor scrubs the trace and times each part of a frame; --screenshot
// writes the frame into a PNG; --layout-dump prints where each panel went.
#pragma once

#include <chrono>
#include <random>
#include <string>
#include <vector>

#include "app.h"

namespace umax::viz {

/// Times the frames of a --bench run. The loop calls beforeFrame() first
/// (it moves the cursor), panelsDrawn() after ImGui::Render(), and
/// frameDrawn() after the GL work; report() prints the figures.
class FrameBench {
 public:
  /// A bench of `frames` frames (0: no bench, every call does nothing); `started` is when main()
  /// began (the first frame's delay is counted from there).
  FrameBench(int frames, std::chrono::steady_clock::time_point started)
      : frames_(frames), started_(started) {}
  bool active() const { return frames_ > 0; }
  /// True once all frames are drawn.
  bool done() const { return active() && static_cast<int>(frameTimes_.size()) >= frames_; }

  /// Moves the cursor: half the frames jump anywhere, half move a little.
  void beforeFrame(App& app);
  void panelsDrawn();
  /// Call after glFinish().
  void frameDrawn(const App& app);
  /// Prints the mean and worst of each part (the first frame, which builds the font atlas and the
  /// GL objects, apart).
  void report() const;

 private:
  using Clock = std::chrono::steady_clock;
  int frames_;
  Clock::time_point started_;
  double firstFrameDelay_ = 0;  // from started_ to the end of the first frame
  int framesWhileIndexing_ = 0;
  std::mt19937_64 random_{12345};
  Clock::time_point frameStart_;
  double cpuStart_ = 0;
  std::vector<double> seekTimes_, panelTimes_, panelCpuTimes_, frameTimes_;
};

/// Writes the back buffer (`width` x `height`) into a PNG, whole or not at
/// all; returns "" or why it could not ("cannot write 'PATH': REASON").
std::string writeScreenshot(const std::string& path, int width, int height);
/// Prints each panel's name and rectangle of the last frame, one line each.
void printLayout(const App& app);

}  // namespace umax::viz
