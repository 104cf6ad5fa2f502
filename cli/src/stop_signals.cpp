// SIGINT, SIGTERM and SIGHUP as a request to stop (simulate): which one came decides the exit
// code. SIGHUP (a closed terminal, a dropped ssh session) lost the report and the statistics
// that the other two keep (the seventh probe); one ignored at the start (nohup) stays ignored.
#include "stop_signals.hpp"

#include "output.hpp"

#include <csignal>

namespace rulebook::cli {

namespace {

std::atomic<bool> stop_flag{false};
std::atomic<int> stop_signal_number{0};
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free,
              "set from a signal handler");

extern "C" void on_stop_signal(int signal) {
  int none = 0;
  stop_signal_number.compare_exchange_strong(none, signal);
  stop_flag.store(true);
  // The next one of either kind ends the process, removing a temporary file being written.
  remove_temporary_files_on_signals();
}

}  // namespace

void catch_stop_signals() {
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
  struct sigaction old {};
  if (::sigaction(SIGHUP, nullptr, &old) != 0 || old.sa_handler != SIG_IGN) std::signal(SIGHUP, on_stop_signal);
}

const std::atomic<bool>& stop_requested() { return stop_flag; }

int stop_signal() { return stop_signal_number.load(); }

int stop_exit_code() { return 128 + (stop_signal() == 0 ? SIGINT : stop_signal()); }

const char* stop_reason() {
  return stop_signal() == SIGTERM ? "terminated (SIGTERM)" : stop_signal() == SIGHUP ? "hung up (SIGHUP)" : "interrupted";
}

}  // namespace rulebook::cli
