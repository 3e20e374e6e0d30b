// The desktop's platform layer: background work and recordings run on
// threads of this process, the trace is a file on disk (nothing to save).
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <memory>

#include "app.h"
#include "platform.h"
#include "umax/engine.h"
#include "umax/position.h"
#include "umax/session.h"
#include "umax/trace/writer.h"

namespace umax::viz::platform {

namespace {

/// Gives the calling thread a lower priority (nice 10): a background build then takes the CPU
/// the window leaves, and scrubbing stays smooth while it runs (on Linux the nice value is per
/// thread). Nothing happens where that is refused.
void yieldToTheWindow() { ::setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), 10); }

}  // namespace

void BackgroundTask::start(Step step) {
  thread_ = std::thread([step = std::move(step)] {
    yieldToTheWindow();
    while (step(64)) {  // 64 chunks (4 MB of records) a step, as the tracer's own passes
    }
  });
}

bool BackgroundTask::joinable() const { return thread_.joinable(); }

void BackgroundTask::join() { thread_.join(); }

BackgroundTask::~BackgroundTask() = default;

void startRecording(Recording& job, const std::string& fen, const std::string& moves, long nodes) {
  job.thread = std::thread([&job, fen, moves, nodes] {
    try {
      auto engine = std::make_unique<Engine>();
      if (!fen.empty()) engine->setPosition(parseFen(fen));
      playMoves(*engine, moves);
      engine->setStopFlag(&job.stop);
      job.result =
          trace::recordThink(*engine, nodes, job.path, fen, moves, [&job](uint64_t counted, int draft) {
            job.nodes = counted;
            job.draft = draft;
          });
    } catch (const std::exception& failure) {
      job.error = failure.what();
      job.failed = true;
    }
    job.done = true;
  });
}

void fileMenuItems(App&) {}

}  // namespace umax::viz::platform
