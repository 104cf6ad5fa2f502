// `rulebook record RULES -o LOG`: the scorekeeper's assistant for a game played at a table.
// It asks only what the table decided or turned up, line by line on standard input, and
// saves the log after every answer; `record RULES -o LOG` on a saved, unfinished log goes
// on from its end. The recording itself is interpreter/src/recorder*.cpp; this file is the
// terminal. See docs/recording.md.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "game_setup.hpp"
#include "number_options.hpp"
#include "output.hpp"
#include "rulebook/grammar/load.hpp"
#include "rulebook/grammar/printable.hpp"
#include "rulebook/grammar/source.hpp"
#include "rulebook/logs/recorder.hpp"
#include "rulebook/logs/replay.hpp"
#include "path_options.hpp"

namespace rulebook::cli {

namespace {

namespace ri = rulebook::interpreter;

struct RecordOptions {
  std::string file;
  std::int64_t players = 0;
  std::vector<std::string> names;
  std::vector<std::string> option_specs;
  std::string out;
};

constexpr std::size_t kListedOptions = 16;

std::string listed(const std::vector<std::string>& options) {
  if (options.size() <= kListedOptions) return fmt::format("{}", fmt::join(options, ", "));
  return fmt::format("{} choices (? lists them)", options.size());
}

void ask(const ri::Question& q) {
  if (q.kind == ri::Question::Kind::kReveal) {
    fmt::print("\n[round {}] {} card{} from the shuffled {} into {}: which? ", q.round, q.count, q.count == 1 ? "" : "s", q.from,
               q.zone);
  } else {
    fmt::print("\n[round {}] {} chooses{}: {}\n{}> ", q.round, q.player, q.rule.empty() ? "" : " in " + q.rule, listed(q.options),
               q.player);
  }
  std::fflush(stdout);
}

// Why the log cannot be written in `path`'s folder, or "" (checked before any question).
std::string folder_error_unprintable(const std::string& path) {
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  if (dir.empty()) dir = ".";
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return fmt::format("cannot write '{}': no folder '{}'", path, dir.string());
  if (::access(dir.c_str(), W_OK) != 0) return fmt::format("cannot write '{}': the folder '{}' is not writable", path, dir.string());
  return replaceable_file_error(path);
}
std::string folder_error(const std::string& path) { return grammar::printable(folder_error_unprintable(path)); }

// A saved log to go on from: checked as `replay --partial` would, its diagnostics printed.
bool check_saved_log(const ri::Machine& machine, const grammar::SourceManager& sources, const std::string& path,
                     const std::string& text) {
  grammar::SourceManager log_sources = sources;
  const grammar::FileId file = log_sources.add(path, text);
  ri::ReplayOptions options;
  options.partial = true;
  const ri::ReplayResult result = ri::replay(machine, log_sources, file, options);
  // Warnings too: a log of other rule files (its hash) goes on as `replay` reads it, but the
  // scorekeeper hears of it, as from `replay` (the eighth probe).
  for (const grammar::Diagnostic& d : result.diagnostics.items()) {
    fmt::print(stderr, "{}", grammar::render_text(d, log_sources, stderr_wants_color()));
  }
  return result.outcome == ri::ReplayOutcome::kOk;
}

// A path as a shell takes it back: in single quotes when it holds anything but letters,
// digits and `_./-` (`-o my game.jsonl` could not be pasted: the tenth probe).
std::string shell_word(const std::string& path) {
  if (!path.empty() && path.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./-") == std::string::npos) {
    return path;
  }
  std::string out = "'";
  for (const char c : path) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return grammar::printable(out + "'");
}

// The questions, until the game is over or the input ends.
int ask_until_over(ri::Recorder& recorder, const RecordOptions& options, const std::function<bool()>& save) {
  while (recorder.question().kind != ri::Question::Kind::kOver) {
    ask(recorder.question());
    std::string line;
    const grammar::LineRead read = grammar::read_line(std::cin, line);
    if (read == grammar::LineRead::kTooLong) {
      fmt::print(stderr, "\nerror: an answer is longer than {} bytes; the answers before it are saved\n",
                 grammar::kMaxAnswerBytes);
      return kExitBadInput;
    }
    if (read == grammar::LineRead::kEnded) {
      fmt::print("\ninput ended: saved; `rulebook record {} -o {}` goes on from here\n", shell_word(options.file), shell_word(options.out));
      return kExitOk;
    }
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    const std::string word = line.substr(first, line.find_last_not_of(" \t\r") + 1 - first);
    if (word == "quit") {
      fmt::print("saved; `rulebook record {} -o {}` goes on from here\n", shell_word(options.file), shell_word(options.out));
      return kExitOk;
    }
    if (word == "?") {
      const ri::Question& q = recorder.question();
      fmt::print("{}\n", fmt::join(q.options, " "));
      continue;
    }
    if (word == "undo") {
      const bool undone = recorder.undo();
      fmt::print("{}\n", undone ? "undone: the last answer is taken back" : "nothing to undo");
      if (!save()) return kExitBadInput;
      continue;
    }
    const std::vector<std::string> completed = recorder.completions(word);
    const bool is_move = recorder.question().kind == ri::Question::Kind::kMove;
    if (const std::string problem = recorder.answer(word); !problem.empty()) {
      fmt::print("impossible: {}\n", problem);
      continue;
    }
    if (is_move && completed.size() == 1 && completed.front() != word) fmt::print("  = {}\n", completed.front());
    if (!save()) return kExitBadInput;
  }
  fmt::print("\n{}\nlog saved to '{}'\n", recorder.question().summary, grammar::printable(options.out));
  return kExitOk;
}

int run_record(const RecordOptions& options) {
  grammar::SourceManager sources;
  int exit_code = kExitOk;
  const std::optional<ri::Machine> machine = load_machine(options.file, exit_code, sources);
  if (!machine) return exit_code;
  if (const std::string error = folder_error(options.out); !error.empty()) {
    fmt::print(stderr, "error: {}\n", error);
    return kExitBadInput;
  }
  // Before the banner: `-o /dev/stdout > f` printed it, then refused at the first save.
  if (const std::string error = standard_stream_error(options.out); !error.empty()) {
    fmt::print(stderr, "error: -o {}\n", error);
    return kExitBadInput;
  }
  std::optional<std::string> saved;
  if (::access(options.out.c_str(), F_OK) == 0) {
    std::string error;
    saved = grammar::read_file(options.out, error);
    if (!saved) {
      fmt::print(stderr, "error: cannot read '{}': {}\n", grammar::printable(options.out), error);
      return kExitBadInput;
    }
    // An empty file (a byte-order mark alone too, as logs may start with one): a new game.
    const std::size_t mark = saved->rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0;
    if (saved->find_first_not_of(" \t\r\n", mark) == std::string::npos) saved.reset();
  }
  ri::RecordSetup setup;
  if (saved) {
    // Whether it is a log at all first: a statistics file was said to hold "a game already".
    std::string error;
    const std::optional<ri::RecordSetup> from_log = ri::record_setup_of(*saved, error);
    if (!from_log) {
      fmt::print(stderr, "error: '{}' is not a game log to go on from ({}); it is left as it is: record to another file\n",
                 grammar::printable(options.out), error);
      return kExitBadInput;
    }
    if (options.players != 0 || !options.names.empty() || !options.option_specs.empty()) {
      fmt::print(stderr, "error: '{}' holds a game already, whose header gives its players, names and options: leave out "
                         "--players, --names and --option to go on with it, or record to another file\n", grammar::printable(options.out));
      return kExitBadInput;
    }
    if (!check_saved_log(*machine, sources, options.out, *saved)) {
      fmt::print(stderr, "error: '{}' is not a log of these rules to go on from; it is left as it is\n", grammar::printable(options.out));
      return kExitBadInput;
    }
    setup = *from_log;
  } else {
    const auto specs = parse_option_specs(options.option_specs);
    if (!specs) return kExitBadInput;
    setup.players = options.players;
    setup.options = *specs;
    for (const std::string& given : options.names) {
      std::size_t from = 0;
      for (;;) {
        const std::size_t comma = given.find(',', from);
        setup.names.push_back(given.substr(from, comma == std::string::npos ? std::string::npos : comma - from));
        if (comma == std::string::npos) break;
        from = comma + 1;
      }
    }
    if (std::find(setup.names.begin(), setup.names.end(), std::string()) != setup.names.end()) {
      fmt::print(stderr, "error: --names has an empty name: give one name per seat, separated by commas (Ann,Bob)\n");
      return kExitBadInput;
    }
  }
  std::optional<ri::Recorder> recorder;
  try {
    recorder.emplace(*machine, sources, setup);
  } catch (const ri::ConfigError& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return kExitBadInput;
  }
  if (saved) {
    if (const std::string error = recorder->resume(*saved); !error.empty()) {
      fmt::print(stderr, "error: '{}', {}\n(a log written by `rulebook record` can be continued; it is left as it is)\n", grammar::printable(options.out), error);
      return kExitBadInput;
    }
    fmt::print("{}: going on from the end of '{}' ({} answers so far)\n", machine->ir().title, grammar::printable(options.out), recorder->answers());
  } else {
    fmt::print("{}: recording to '{}'\n", machine->ir().title, grammar::printable(options.out));
  }
  fmt::print("Type what the table decided or turned up; ? lists the choices, undo takes back the last answer, "
             "quit saves and stops.\n");
  // A log gone on with is written again only once an answer changes it: `quit` at once
  // rewrote it all the same, with these rules' hash over a log of other rules (the ninth
  // probe). The text it would have now stands for what the file holds.
  std::string last_written = saved ? recorder->log_text() : std::string();
  const auto save = [&]() {
    std::string text = recorder->log_text();
    if (saved && text == last_written) return true;
    const std::string error = write_file_atomically(options.out, text);
    if (!error.empty()) fmt::print(stderr, "error: {}\n", error);
    if (error.empty()) last_written = std::move(text);
    return error.empty();
  };
  if (!save()) return kExitBadInput;
  try {
    return ask_until_over(*recorder, options, save);
  } catch (const std::system_error&) {
    throw;  // stdout cannot be written: main says so
  } catch (const std::exception& e) {  // a bug to report: the log saved last is kept
    fmt::print(stderr, "internal error: {}\n", e.what());
    return kExitInternal;
  }
}

}  // namespace

void add_record_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<RecordOptions>();
  CLI::App* cmd = app.add_subcommand("record", "Record a game played at a table: asks only what the table decided or turned up");
  cmd->add_option("file", options->file, "Rule file (a game or a variant)")->required();
  cmd->add_option("--players", options->players, "Number of human players (default: the ruleset's `default N`, else the most it allows)")
      ->transform(whole_number(1, 64));
  // Split here, not by CLI11's delimiter: `--names ,` gave CLI11 no value and it took the
  // next argument (`-o`) as the names (the eighth probe).
  cmd->add_option("--names", options->names, "Seat names, in seat order (Ann,Bob or Ann Bob)");
  cmd->add_option("--option", options->option_specs, "Set a ruleset option, e.g. --option ogling=true")->type_name("NAME=VALUE");
  cmd->add_option("-o,--output", options->out, "The log (JSON Lines); an unfinished one is continued")->check(output_path())->required();
  cmd->callback([options, &exit_code] { exit_code = run_record(*options); });
}

}  // namespace rulebook::cli
