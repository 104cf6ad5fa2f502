// SIGINT and SIGTERM for `simulate`: both ask a run to stop between two games or two logs,
// so that it can print and save what it has, and remove no file half written. SIGTERM is
// what Slurm, Kubernetes and systemd send before they kill a job; a second signal of either
// kind ends the process at once, as usual.
#pragma once

#include <atomic>

namespace rulebook::cli {

// From now on, the first SIGINT or SIGTERM sets the flag that stop_requested() returns.
void catch_stop_signals();
const std::atomic<bool>& stop_requested();

// The signal that set the flag (SIGINT or SIGTERM), 0 before one came.
int stop_signal();

// 128 + the signal, as shells report a process that a signal ended: 130 for SIGINT, 143 for
// SIGTERM.
int stop_exit_code();

// "interrupted" (SIGINT) or "terminated (SIGTERM)", to start the message that says what was done.
const char* stop_reason();

}  // namespace rulebook::cli
