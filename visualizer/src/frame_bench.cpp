// umax-viz --bench: scrub the trace headless and time each frame.
#include <algorithm>
#include <cstdio>

#include "headless.h"

namespace umax::viz {

namespace {

double secondsBetween(std::chrono::steady_clock::time_point start,
                      std::chrono::steady_clock::time_point end) {
  return std::chrono::duration<double>(end - start).count();
}

/// Prints one line: mean and worst of `times` without the first (returns the mean).
double report(const char* what, const std::vector<double>& times) {
  double sum = 0, worst = 0;
  for (std::size_t index = 1; index < times.size(); ++index) {
    sum += times[index];
    worst = std::max(worst, times[index]);
  }
  const double mean = times.size() > 1 ? sum / double(times.size() - 1) : 0;
  std::printf("%-34s mean %7.2f ms  max %7.2f ms\n", what, 1000 * mean, 1000 * worst);
  return mean;
}

}  // namespace

void FrameBench::beforeFrame(App& app) {
  if (!active()) return;
  frameStart_ = Clock::now();
  if (app.hasTrace()) {
    if (frameTimes_.size() % 2 == 0)
      app.seek(random_() % (app.eventCount() + 1));
    else
      app.seek(app.cursor() + 1 + random_() % 2000);
  }
  seekTimes_.push_back(secondsBetween(frameStart_, Clock::now()));
  cpuStart_ = threadCpuSeconds();
}

void FrameBench::panelsDrawn() {
  if (!active()) return;
  panelTimes_.push_back(secondsBetween(frameStart_, Clock::now()) - seekTimes_.back());
  panelCpuTimes_.push_back(threadCpuSeconds() - cpuStart_);
}

void FrameBench::frameDrawn(const App& app) {
  if (!active()) return;
  const auto now = Clock::now();
  if (frameTimes_.empty()) firstFrameDelay_ = secondsBetween(started_, now);
  frameTimes_.push_back(secondsBetween(frameStart_, now));
  if (app.indexesBuilding()) ++framesWhileIndexing_;
}

void FrameBench::report() const {
  if (frameTimes_.empty()) return;
  std::printf("first frame (font atlas, GL setup): %.2f ms; done %.3f s after main() started\n",
              1000 * frameTimes_.front(), firstFrameDelay_);
  std::printf(
      "%zu further frames while scrubbing (half random jumps, half short moves), %d of them "
      "while the indexes were building:\n",
      frameTimes_.size() - 1, framesWhileIndexing_);
  viz::report("  seek (replay model)", seekTimes_);
  viz::report("  panels (ImGui frame), wall", panelTimes_);
  viz::report("  panels (ImGui frame), CPU time", panelCpuTimes_);
  const double mean = viz::report("  whole frame incl. GL + glFinish", frameTimes_);
  std::printf("  => %.0f fps mean (GL is Mesa's renderer under xvfb: software unless a GPU is present)\n",
              mean > 0 ? 1 / mean : 0);
}

}  // namespace umax::viz
