// `rulebook replay FILE LOG...`: re-runs game logs through a ruleset, checking every step.
// Problems go to stderr as diagnostics that quote the log line and the rule line; the
// result of each log goes to stdout (text, or one JSON object with --format json).
#include <algorithm>
#include <iostream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "game_setup.hpp"
#include "output.hpp"
#include "replay_json.hpp"
#include "replay_views.hpp"
#include "rulebook/grammar/printable.hpp"
#include "rulebook/logs/replay.hpp"

namespace rulebook::cli {

namespace {

namespace ri = rulebook::interpreter;

struct ReplayCommandOptions {
  std::string file;
  std::vector<std::string> logs;
  std::vector<std::string> option_specs;
  bool trace = false;
  bool strict = false;
  bool partial = false;
  std::string format = "text";
  std::string show_state;  // "", "step" or "round"
  std::string as = "table";
};

const char* outcome_name(ri::ReplayOutcome outcome) {
  switch (outcome) {
    case ri::ReplayOutcome::kOk: return "ok";
    case ri::ReplayOutcome::kIllegal: return "illegal";
    case ri::ReplayOutcome::kFault: return "fault";
    case ri::ReplayOutcome::kBadLog: return "bad-log";
  }
  return "?";
}

int exit_code_of(ri::ReplayOutcome outcome) {
  switch (outcome) {
    case ri::ReplayOutcome::kOk: return kExitOk;
    case ri::ReplayOutcome::kIllegal:
    case ri::ReplayOutcome::kFault: return kExitFinding;
    case ri::ReplayOutcome::kBadLog: return kExitBadInput;
  }
  return kExitBadInput;
}

std::string status_text(const ri::ReplayResult& r) {
  switch (r.outcome) {
    case ri::ReplayOutcome::kOk:
      if (r.ended) return fmt::format("ok: {} steps, the game ended in round {}", r.steps, r.final_state->rounds);
      if (r.stopped) return fmt::format("ok: {} steps, then the game was stopped ({})", r.steps, *r.stopped);
      return fmt::format("ok: {} steps, the game is still in progress", r.steps);
    case ri::ReplayOutcome::kIllegal: return fmt::format("illegal step after {} legal steps", r.steps);
    case ri::ReplayOutcome::kFault: return fmt::format("rule fault after {} steps", r.steps);
    case ri::ReplayOutcome::kBadLog: return "bad log";
  }
  return "?";
}

std::vector<std::string> named(const ri::ReplayResult& r, const std::vector<ri::PlayerId>& players) {
  std::vector<std::string> out;
  for (const ri::PlayerId p : players) out.push_back(r.seat_names[static_cast<std::size_t>(p)]);
  return out;
}

nlohmann::json result_json(const ri::Machine& machine, const std::string& path, const ri::ReplayResult& r,
                           const grammar::SourceManager& sources, std::optional<ri::PlayerId> viewer) {
  nlohmann::json j;
  j["log"] = path;
  j["result"] = outcome_name(r.outcome);
  j["steps"] = r.steps;
  j["ended"] = r.ended;
  j["stopped"] = r.stopped ? nlohmann::json(*r.stopped) : nlohmann::json(nullptr);
  j["seats"] = r.seat_names;
  if (r.final_state) {
    // Where every card is when the replay stops: all of it follows from the log.
    nlohmann::json zones = nlohmann::json::object();
    for (std::size_t z = 0; z < r.final_state->zones.size(); ++z) {
      if (r.final_state->zones[z].empty()) continue;
      nlohmann::json cards = nlohmann::json::array();
      for (const ri::CardId c : r.final_state->zones[z]) cards.push_back(machine.card_name(*r.final_state, c));
      zones[machine.zone_name(static_cast<std::int32_t>(z))] = cards;
    }
    j["zones"] = zones;
    j["rounds"] = r.final_state->rounds;
    j["moves"] = r.final_state->moves;
    if (r.ended) {
      j["winners"] = named(r, r.final_state->winners);
      nlohmann::json scores = nlohmann::json::object();
      const auto values = machine.scores(*r.final_state);
      for (std::size_t i = 0; i < values.size(); ++i) scores[machine.ir().scores[i].name] = score_json(values[i]);
      j["scores"] = scores;
    }
    // `round_scores` and `states` are spliced in by JsonReplayReport.
    if (viewer) j["as"] = *viewer == ri::kTableViewer ? std::string("table") : r.seat_names[static_cast<std::size_t>(*viewer)];
  }
  if (!r.waiting.empty()) {
    j["waiting"] = {{"what", r.waiting}, {"player", r.waiting_player}, {"rule", r.waiting_rule}, {"legal", r.waiting_legal}};
  }
  j["diagnostics"] = nlohmann::json::parse(grammar::render_json(r.diagnostics.items(), sources));
  return j;  // `trace` too is spliced in by JsonReplayReport
}

// What follows the trace: the result, what the rules wait for, the winners and scores.
void print_text(const ri::Machine& machine, const std::string& path, const ri::ReplayResult& r) {
  fmt::print("{}: {}\n", path, status_text(r));
  if (r.outcome == ri::ReplayOutcome::kOk && !r.waiting.empty()) {
    fmt::print("  next: {}\n", r.waiting);
    if (!r.waiting_legal.empty()) fmt::print("  legal: {}\n", fmt::join(r.waiting_legal, ", "));
  }
  if (r.outcome != ri::ReplayOutcome::kOk || !r.ended) return;
  const std::vector<std::string> winners = named(r, r.final_state->winners);
  fmt::print("  winners: {}\n", winners.empty() ? std::string("nobody") : fmt::format("{}", fmt::join(winners, ", ")));
  const auto values = machine.scores(*r.final_state);
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::vector<std::string> parts;
    for (std::size_t p = 0; p < values[i].size(); ++p) {
      parts.push_back(fmt::format("{} = {}", r.seat_names[p], ri::score_text(values[i][p])));
    }
    fmt::print("  {}: {}\n", machine.ir().scores[i].name, fmt::join(parts, ", "));
  }
}

int run_replay(const ReplayCommandOptions& options) {
  std::string option_error;
  const auto option_values = parse_option_specs(options.option_specs, option_error);
  if (!option_values) {
    fmt::print(stderr, "error: {}\n", option_error);
    if (options.format == "json") print_json_error(option_error, kExitBadInput, {{"logs", nlohmann::json::array()}});
    return kExitBadInput;
  }
  grammar::SourceManager sources;
  int exit_code = kExitOk;
  const std::optional<ri::Machine> machine = load_machine(options.file, exit_code, sources, output_format(options.format));
  if (!machine) return exit_code;

  ri::ReplayOptions replay_options;
  replay_options.options = *option_values;
  replay_options.strict = options.strict;
  replay_options.partial = options.partial;
  const bool json = options.format == "json";
  replay_options.trace = options.trace || options.show_state == "step";
  // Round scores are cheap (one evaluation a round): JSON always has them, text with a trace.
  replay_options.round_scores = json || replay_options.trace || !options.show_state.empty();
  if (options.show_state == "step") replay_options.snapshots = ri::ReplayOptions::Snapshots::kStep;
  if (options.show_state == "round") replay_options.snapshots = ri::ReplayOptions::Snapshots::kRound;
  const bool color = stderr_wants_color();
  // JSON is printed a log at a time; each log's report is built as its replay goes.
  std::size_t reports = 0;
  const auto print_report = [&](const std::string& entry) {
    fmt::print("{}{}", reports++ == 0 ? json_report_head(true) : ",\n", entry);
  };
  // Standard input is read once: a second `-` was reported as an empty log (the tenth probe).
  if (std::count(options.logs.begin(), options.logs.end(), std::string("-")) > 1) {
    fmt::print(stderr, "error: '-' (standard input) is given more than once; it can be read only once\n");
    return kExitBadInput;
  }
  for (const std::string& path : options.logs) {
    std::string error;
    std::optional<std::string> text;
    if (path == "-") {
      text = grammar::read_stream(std::cin, error);
    } else {
      text = grammar::read_file(path, error);
    }
    if (!text) {
      fmt::print(stderr, "error: cannot read the log '{}': {}\n", grammar::printable(path), error);
      exit_code = std::max(exit_code, kExitBadInput);
      if (json) print_report(json_report_entry({{"log", path}, {"result", "unreadable"}, {"message", error}}));
      continue;
    }
    // Each log is added to its own copy of the (small) rule sources, so that replaying many
    // logs does not keep them all in memory.
    grammar::SourceManager log_sources = sources;
    const grammar::FileId log_file = log_sources.add(path, std::move(*text));
    if (!json) {
      // Text is printed as the replay goes: a long log's steps and states are not all kept.
      TracePrinter printer(*machine, path, options.as, !options.show_state.empty());
      ri::ReplayOptions streaming = replay_options;
      streaming.drain = [&printer](ri::ReplayResult& so_far, std::int64_t next_step) { printer.drain(so_far, next_step); };
      try {
        ri::ReplayResult result = ri::replay(*machine, log_sources, log_file, streaming);
        printer.resolve_viewer(result);  // a log without steps: --as is checked here
        exit_code = std::max(exit_code, exit_code_of(result.outcome));
        for (const grammar::Diagnostic& d : result.diagnostics.items()) fmt::print(stderr, "{}", grammar::render_text(d, log_sources, color));
        printer.finish(result);
        print_text(*machine, path, result);
      } catch (const TracePrinter::ViewerRefused&) {
        exit_code = std::max(exit_code, kExitBadInput);
      }
      continue;
    }
    JsonReplayReport report(*machine, path, options.as, !options.show_state.empty());
    ri::ReplayOptions streaming = replay_options;
    streaming.drain = [&report](ri::ReplayResult& so_far, std::int64_t next_step) { report.drain(so_far, next_step); };
    ri::ReplayResult result = ri::replay(*machine, log_sources, log_file, streaming);
    exit_code = std::max(exit_code, exit_code_of(result.outcome));
    report.drain(result, 0);  // a log without steps: the viewer is read from its header now
    if (report.viewer_failed()) exit_code = std::max(exit_code, kExitBadInput);
    const nlohmann::json members = result_json(*machine, path, result, log_sources, report.viewer());
    report.finish(result, members, reports++ == 0 ? json_report_head(true) : ",\n");
  }
  if (json) fmt::print("{}\n", json_report_tail(machine->ir().title, reports > 0));
  return exit_code;
}

}  // namespace

void add_replay_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ReplayCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "replay", "Check game logs against a ruleset, step by step (exit 1: an illegal step or a rule fault; 2: a bad log)");
  cmd->add_option("file", options->file, "Rule file (a game or a variant)")->required();
  cmd->add_option("logs", options->logs, "Game logs (JSON Lines; see docs/log-format.md); - reads standard input")->required();
  cmd->add_option("--option", options->option_specs, "Set a ruleset option, overriding the log's header")
      ->type_name("NAME=VALUE");
  cmd->add_flag("--trace", options->trace, "Print every step: player, choice, rule and its source line");
  cmd->add_flag("--strict", options->strict, "A log written for other rule files (hash) is an error, not a warning");
  cmd->add_flag("--partial", options->partial, "Accept a log that stops before the game ends (a game in progress)");
  cmd->add_option("--format", options->format, "Output format")->check(CLI::IsMember({"text", "json"}))->default_str("text");
  CLI::Option* show = cmd->add_option("--show-state", options->show_state,
                                      "Print the zones, cards, scores and whose turn it is after every step (and the scores at every round's end), or at the end of every round")
                          ->check(CLI::IsMember({"step", "round"}))
                          ->type_name("step|round");
  cmd->add_option("--as", options->as, "Whose view --show-state prints: a player (name or number in the log) or the table (public cards only)")
      ->type_name("SEAT|table")
      ->default_str("table")
      ->needs(show);
  cmd->callback([options, &exit_code] { exit_code = run_replay(*options); });
}

}  // namespace rulebook::cli
