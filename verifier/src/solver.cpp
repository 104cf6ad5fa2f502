#include "solver.hpp"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace rulebook::verifier {

z3::check_result check_within(z3::solver& solver, unsigned timeout_ms) {
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  // The interrupt is sent with the lock held and `done` is set under it, so it reaches either
  // the running query or a solver that has already returned (where it does nothing); never a
  // later query.
  std::thread watchdog([&] {
    std::unique_lock<std::mutex> lock(mutex);
    if (!finished.wait_until(lock, deadline, [&] { return done; })) Z3_solver_interrupt(solver.ctx(), solver);
  });
  auto stop_watchdog = [&] {
    {
      const std::lock_guard<std::mutex> lock(mutex);
      done = true;
    }
    finished.notify_one();
    watchdog.join();
  };
  try {
    const z3::check_result result = solver.check();
    stop_watchdog();
    return result;
  } catch (...) {
    stop_watchdog();
    throw;
  }
}

}  // namespace rulebook::verifier
