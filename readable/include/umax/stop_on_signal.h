/// \file stop_on_signal.h
/// \brief Ctrl-C stops a think, not the process: while a StopOnSignal lives, SIGINT and SIGTERM
/// raise a stop flag for Engine::setStopFlag, so that what the think was writing (a trace)
/// still ends whole.
#pragma once

#include <signal.h>

#include <atomic>
#include <csignal>

namespace umax {

/// Raised by Ctrl-C (SIGINT) or SIGTERM while a StopOnSignal lives: the engine's stop flag.
inline std::atomic<bool> stopRequested{false};
/// The signal that raised stopRequested (0: none did).
inline volatile std::sig_atomic_t stopSignal = 0;

extern "C" {
/// The handler StopOnSignal installs: notes the signal and raises stopRequested.
inline void umaxRaiseStopFlag(int signal) {
  stopSignal = signal;
  stopRequested.store(true, std::memory_order_relaxed);
}
}

/// While it lives, Ctrl-C and SIGTERM raise `stopRequested` instead of killing the process. A
/// second signal kills as usual. A signal the process was started with ignored (a background
/// job of a script) stays ignored.
struct StopOnSignal {
  static constexpr int kSignals[2] = {SIGINT, SIGTERM};  ///< the signals that stop
  struct sigaction old[2]{};                             ///< their actions before, restored at the end

  /// Installs the handler for each signal not ignored.
  StopOnSignal() {
    for (int index = 0; index < 2; ++index) {
      sigaction(kSignals[index], nullptr, &old[index]);
      if (old[index].sa_handler == SIG_IGN) continue;
      struct sigaction action {};
      action.sa_handler = umaxRaiseStopFlag;
      sigemptyset(&action.sa_mask);
      action.sa_flags = SA_RESETHAND;  // the second signal gets the default action
      sigaction(kSignals[index], &action, nullptr);
    }
  }
  /// Restores the actions it replaced.
  ~StopOnSignal() {
    for (int index = 0; index < 2; ++index) sigaction(kSignals[index], &old[index], nullptr);
  }
  /// Not copied: one set of saved actions.
  StopOnSignal(const StopOnSignal&) = delete;
  /// Not copied: one set of saved actions.
  StopOnSignal& operator=(const StopOnSignal&) = delete;
};

}  // namespace umax
