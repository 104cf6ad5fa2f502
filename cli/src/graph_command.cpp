// `rulebook graph FILE`: the structure of a ruleset as Graphviz DOT, or as SVG drawn by
// Graphviz's `dot` (installed by .ci/install-deps; looked up on PATH).
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <chrono>
#include <string>

#include <fmt/format.h>

#include "commands.hpp"
#include "output.hpp"
#include "rulebook/authoring/graph.hpp"
#include "rulebook/grammar/load.hpp"
#include "path_options.hpp"

extern char** environ;

namespace rulebook::cli {

namespace {

struct GraphOptions {
  std::string file;
  std::string format = "dot";
  std::string out;
};

// A temporary file removed when it goes out of scope.
struct TempFile {
  std::string path;
  TempFile() {
    std::string pattern = (std::filesystem::temp_directory_path() / "rulebook-graph.XXXXXX").string();
    const int fd = mkstemp(pattern.data());
    if (fd >= 0) {
      ::close(fd);
      path = pattern;
    }
  }
  ~TempFile() {
    if (!path.empty()) ::unlink(path.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
};

// The signals that stop `graph` while `dot` draws (Ctrl-C, `kill`, a closed terminal). They
// are blocked from before the temporary files exist until `dot` is done, and taken with
// sigtimedwait, so none arrives between a check and a wait: `dot` is then stopped, the
// temporary files removed, the output left alone, and the exit code is 128 + the signal.
sigset_t stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  for (const int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&set, s);
  return set;
}

// Blocks the stop signals, and SIGCHLD (which then wakes the wait when `dot` ends), for its
// lifetime; a stop signal not taken by then is delivered when the block ends. SIGINT and
// SIGTERM get their default action meanwhile, even if they were ignored (a shell starts a
// background job with SIGINT ignored), as `simulate` catches SIGINT whatever it inherited:
// an ignored signal is never pending, so it could not be taken. An ignored SIGHUP (nohup)
// stays ignored.
class BlockedSignals {
 public:
  BlockedSignals() {
    sigset_t set = stop_signals();
    sigaddset(&set, SIGCHLD);
    pthread_sigmask(SIG_BLOCK, &set, &old_mask_);
    struct sigaction default_action {};
    default_action.sa_handler = SIG_DFL;
    sigemptyset(&default_action.sa_mask);
    sigaction(SIGINT, &default_action, &old_int_);
    sigaction(SIGTERM, &default_action, &old_term_);
    sigaction(SIGCHLD, &default_action, &old_chld_);  // an ignored SIGCHLD reaps `dot` behind our back
  }
  ~BlockedSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
    sigaction(SIGCHLD, &old_chld_, nullptr);
    pthread_sigmask(SIG_SETMASK, &old_mask_, nullptr);
  }
  BlockedSignals(const BlockedSignals&) = delete;
  BlockedSignals& operator=(const BlockedSignals&) = delete;

 private:
  sigset_t old_mask_{};
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
  struct sigaction old_chld_ {};
};

// A stop signal already pending, taken (0 if none).
int take_stop_signal() {
  const sigset_t set = stop_signals();
  const timespec now{0, 0};
  const int s = sigtimedwait(&set, nullptr, &now);
  return s > 0 ? s : 0;
}

// Whether `pid` has ended, without reaping it: until it is reaped its process id, and so its
// process group id, cannot be given to another process, so the group can still be signalled.
bool ended(pid_t pid) {
  siginfo_t info{};
  if (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0) return errno != EINTR;
  return info.si_pid == pid;
}

// Ends what is left of `dot`'s process group (what it started) and reaps `dot`: its wait
// status, or nullopt if it could not be had.
std::optional<int> reap(pid_t pid) {
  ::kill(-pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return std::nullopt;
  }
  return status;
}

// How long `dot` may draw.
constexpr std::chrono::seconds kDotSeconds{60};

// Stops `dot` and everything it started: SIGTERM to its group, SIGKILL after a second.
void stop_child(pid_t pid) {
  ::kill(-pid, SIGTERM);
  for (int i = 0; i < 100 && !ended(pid); ++i) {
    const timespec tick{0, 10'000'000};
    nanosleep(&tick, nullptr);
  }
  reap(pid);
}

// Runs `dot -Tsvg` on `dot_text`, with the stop signals blocked (by the caller). Returns the
// SVG, or sets `error`, or sets `stopped_by` to the stop signal that came while it ran.
std::string draw_svg(const std::string& dot_text, std::string& error, int& stopped_by) {
  TempFile in, out;
  if (in.path.empty() || out.path.empty()) {
    error = fmt::format("cannot create a temporary file: {}", std::strerror(errno));
    return {};
  }
  if (std::string e = write_file_atomically(in.path, dot_text); !e.empty()) {
    error = e;
    return {};
  }
  std::string program = "dot", format = "-Tsvg", flag = "-o";
  char* argv[] = {program.data(), format.data(), flag.data(), out.path.data(), in.path.data(), nullptr};
  // `dot` starts with no signal blocked, the default actions, and a process group of its own
  // (so that the whole of it can be stopped, and a terminal's Ctrl-C reaches only us).
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none;
  sigemptyset(&none);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, "dot", nullptr, &attr, argv, environ);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    error = rc == ENOENT ? "--format svg needs Graphviz's 'dot' on PATH (Debian: apt-get install graphviz); "
                           "--format dot prints the graph without it"
                         : fmt::format("cannot run 'dot': {}", std::strerror(rc));
    return {};
  }
  sigset_t wake = stop_signals();
  sigaddset(&wake, SIGCHLD);
  // `dot` is superlinear: 40,000 rules in a row ran for minutes (the seventh probe). Past the
  // limit it is stopped; the DOT text (--format dot) is there for a drawing of one's own.
  const auto deadline = std::chrono::steady_clock::now() + kDotSeconds;
  while (!ended(pid)) {
    if (std::chrono::steady_clock::now() > deadline) {
      stop_child(pid);
      error = fmt::format("'dot' did not finish drawing in {} s (a graph of {} lines); --format dot writes the graph "
                          "without drawing it",
                          kDotSeconds.count(), std::count(dot_text.begin(), dot_text.end(), '\n'));
      return {};
    }
    // Woken by SIGCHLD when `dot` ends; the timeout is only a safety net.
    const timespec tick{0, 200'000'000};
    const int s = sigtimedwait(&wake, nullptr, &tick);
    if (s > 0 && s != SIGCHLD) {
      stopped_by = s;
      stop_child(pid);
      return {};
    }
  }
  const std::optional<int> reaped = reap(pid);
  if (const int s = take_stop_signal(); s != 0) {
    stopped_by = s;  // `dot` may have finished because the same Ctrl-C reached it
    return {};
  }
  if (!reaped) {
    error = fmt::format("waiting for 'dot': {}", std::strerror(errno));
    return {};
  }
  const int status = *reaped;
  if (WIFSIGNALED(status)) {
    error = fmt::format("'dot' was killed by signal {} ({}) before it finished drawing", WTERMSIG(status),
                        strsignal(WTERMSIG(status)));
    return {};
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    error = "'dot' failed to draw the graph (its message is above)";
    return {};
  }
  std::string read_error;
  const std::optional<std::string> svg = grammar::read_file(out.path, read_error);
  if (!svg) error = read_error;
  return svg.value_or("");
}

int run_graph(const GraphOptions& options) {
  grammar::SourceManager sources;
  grammar::Diagnostics diagnostics;
  const grammar::LoadResult loaded = grammar::load_ruleset(options.file, sources, diagnostics);
  if (loaded.status != grammar::LoadStatus::kOk) {
    print_diagnostics(diagnostics, sources, OutputFormat::kText);
    return loaded.status == grammar::LoadStatus::kUnreadable ? kExitBadInput : kExitFinding;
  }
  protect_inputs(sources);
  if (!options.out.empty()) {
    if (const std::string error = input_overwrite_error(options.out); !error.empty()) {
      fmt::print(stderr, "error: -o {}\n", error);
      return kExitBadInput;
    }
  }
  std::string text = authoring::structure_dot(*loaded.program, sources);
  if (options.format == "svg") {
    std::string error;
    int stopped_by = 0;
    {
      const BlockedSignals blocked;
      text = draw_svg(text, error, stopped_by);
    }
    if (stopped_by != 0) {
      fmt::print(stderr, "interrupted ({}): 'dot' was stopped{}\n", strsignal(stopped_by),
                 options.out.empty() ? std::string() : fmt::format("; '{}' was left as it was", options.out));
      return 128 + stopped_by;
    }
    if (!error.empty()) {
      fmt::print(stderr, "error: {}\n", error);
      return kExitBadInput;
    }
  }
  if (options.out.empty()) {
    fmt::print("{}", text);
    return kExitOk;
  }
  if (const std::string error = write_file_atomically(options.out, text); !error.empty()) {
    fmt::print(stderr, "error: {}\n", error);
    return kExitBadInput;
  }
  return kExitOk;
}

}  // namespace

void add_graph_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<GraphOptions>();
  CLI::App* cmd = app.add_subcommand(
      "graph", "Draw a ruleset's structure (setup, round, loops, labelled rules with their lines) with Graphviz");
  cmd->add_option("file", options->file, "The rule file")->required();
  cmd->add_option("--format", options->format, "dot (Graphviz source) or svg (drawn by Graphviz's dot)")
      ->check(CLI::IsMember({"dot", "svg"}))
      ->default_str("dot");
  cmd->add_option("-o,--out", options->out, "Write to this file (through a temporary file) instead of stdout")->check(output_path())->type_name("FILE");
  cmd->callback([options, &exit_code] { exit_code = run_graph(*options); });
}

}  // namespace rulebook::cli
