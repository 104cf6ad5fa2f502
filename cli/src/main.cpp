// rulebook: a rules language for card games, its interpreter and its verifier.
#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <new>
#include <iostream>
#include <system_error>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "commands.hpp"
#include "output.hpp"
#include "rulebook/grammar/printable.hpp"

namespace {

// Standard error, made so that a write never fails: a message that cannot be written (stderr on
// a full disk, /dev/full, closed) cannot be reported anywhere, and must not stop the command.
// fmt::print throws when a write fails, and the abort that followed lost the report and the
// statistics of `simulate ... 2>/dev/full`.
ssize_t write_to_stderr(void* /*cookie*/, const char* data, size_t size) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(STDERR_FILENO, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // lost: nothing to tell it to
    done += static_cast<std::size_t>(n);
  }
  return static_cast<ssize_t>(size);
}

void make_stderr_unfailing() {
  cookie_io_functions_t io{};
  io.write = write_to_stderr;
  if (FILE* err = ::fopencookie(nullptr, "w", io); err != nullptr) {
    std::setvbuf(err, nullptr, _IONBF, 0);
    stderr = err;  // glibc's stderr is a variable a program may set
  }
}

}  // namespace

int main(int argc, char** argv) {
  make_stderr_unfailing();
  // A file size limit (`ulimit -f`) is a full disk to us: a write past it fails with EFBIG,
  // which every command reports and cleans up after. By default SIGXFSZ would kill the
  // process there instead, with no message and a temporary file left behind.
  std::signal(SIGXFSZ, SIG_IGN);
  // glibc gives each thread an arena that reserves 64 MB of address space; under a limit on
  // it (`ulimit -v`) the arena cannot be made, and the second thread's allocations kept
  // trying: simulate --jobs 2 took 58 s instead of 0.5 under 100 MB (the sixth probe). One
  // arena for all costs nothing measurable here (Hearts, 2,000 games, 2 jobs: 3.41 s against
  // 3.36 s), but it is only asked for under such a limit.
  if (struct rlimit space {}; ::getrlimit(RLIMIT_AS, &space) == 0 && space.rlim_cur != RLIM_INFINITY) {
    ::mallopt(M_ARENA_MAX, 1);
  }
  CLI::App app{"rulebook: write card-game rules as text, check them, play and verify them"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("rulebook " RULEBOOK_VERSION));
  // Global, and accepted after the subcommand too (fallthrough), as in `check --color never`.
  app.add_option_function<std::string>(
         "--color",
         [](const std::string& value) {
           rulebook::cli::set_color_choice(value == "always"  ? rulebook::cli::ColorChoice::kAlways
                                           : value == "never" ? rulebook::cli::ColorChoice::kNever
                                                              : rulebook::cli::ColorChoice::kAuto);
         },
         "Colour in diagnostics: auto (on a terminal, unless NO_COLOR is set), always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->default_str("auto");
  app.fallthrough();
  int exit_code = rulebook::cli::kExitOk;
  rulebook::cli::add_check_command(app, exit_code);
  rulebook::cli::add_fmt_command(app, exit_code);
  rulebook::cli::add_play_command(app, exit_code);
  rulebook::cli::add_simulate_command(app, exit_code);
  rulebook::cli::add_replay_command(app, exit_code);
  rulebook::cli::add_record_command(app, exit_code);
  rulebook::cli::add_verify_command(app, exit_code);
  rulebook::cli::add_merge_command(app, exit_code);
  rulebook::cli::add_graph_command(app, exit_code);
  rulebook::cli::add_explain_command(app, exit_code);
  rulebook::cli::remove_temporary_files_on_signals();
  try {
    app.parse(argc, argv);
  } catch (const std::system_error& e) {
    // fmt::print throws when stdout cannot take what it is given (a full disk, /dev/full).
    return rulebook::cli::output_failed(e.code().value());
  } catch (const std::bad_alloc&) {
    // What no limit bounds in advance (a JSON report of a log of millions of rounds is held
    // whole, about ten times the log) can still run out of memory: say so, as bad input.
    std::fflush(stdout);
    fmt::print(stderr, "\nerror: out of memory; what was printed is incomplete (docs/reliability.md, \"Limits\")\n");
    return rulebook::cli::kExitBadInput;
  } catch (const CLI::CallForHelp& e) {
    exit_code = app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    exit_code = app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    exit_code = app.exit(e);
  } catch (const CLI::ParseError& e) {
    // CLI11's message quotes the argument as typed: written out, as all text from input.
    fmt::print(stderr, "{}\nRun with --help for more information.\n", rulebook::grammar::printable(e.what()));
    exit_code = rulebook::cli::kExitBadInput;
  }
  // What is still buffered, and any write that failed on the way: `fmt a > b && mv b a` must
  // not go on when b was not written whole. (CLI11 writes help and version to std::cout.)
  const bool flushed = std::fflush(stdout) == 0;
  const int flush_error = flushed ? 0 : errno;
  std::cout.flush();
  if (!flushed || std::ferror(stdout) != 0 || !std::cout) return rulebook::cli::output_failed(flush_error);
  return exit_code;
}
