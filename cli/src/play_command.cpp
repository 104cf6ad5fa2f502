// `rulebook play FILE`: a game at the terminal. Human seats see what a player at the table
// would know (the table view: their own hand, public zones, the others' card counts, the
// scores), what happened since their last choice as they saw it (the Narrator), and a
// numbered list of legal moves; the other seats are random agents. `--debug` adds the whole
// state, hidden cards and variables included.
#include <cctype>
#include <iostream>
#include <memory>
#include <random>
#include <set>
#include <string>

#include <fmt/format.h>

#include "commands.hpp"
#include "game_setup.hpp"
#include "number_options.hpp"
#include "output.hpp"
#include "rulebook/grammar/source.hpp"
#include "rulebook/interpreter/agent.hpp"
#include "rulebook/logs/log.hpp"
#include "rulebook/logs/narrator.hpp"
#include "rulebook/logs/table_view.hpp"
#include "path_options.hpp"

namespace rulebook::cli {

namespace {

namespace ri = rulebook::interpreter;

struct PlayOptions {
  GameOptions game;
  std::vector<int> humans;
  std::string log;
  bool debug = false;
};

// The log writer and the narrator both listen to the game.
class BothSinks : public ri::EventSink {
 public:
  BothSinks(ri::EventSink& first, ri::EventSink& second) : a_(first), b_(second) {}
  bool shuffle_result(const ri::State& s, std::int32_t zone, std::vector<ri::CardId>& cards) override {
    return a_.shuffle_result(s, zone, cards) || b_.shuffle_result(s, zone, cards);
  }
  void shuffled(const ri::State& s, std::int32_t zone) override {
    a_.shuffled(s, zone);
    b_.shuffled(s, zone);
  }
  void dealt(const ri::State& s, std::int32_t from, std::int32_t to, const std::vector<ri::CardId>& cards) override {
    a_.dealt(s, from, to, cards);
    b_.dealt(s, from, to, cards);
  }
  void moved(const ri::State& s, ri::CardId card, std::int32_t from, bool was_up) override {
    a_.moved(s, card, from, was_up);
    b_.moved(s, card, from, was_up);
  }
  void flipped(const ri::State& s, ri::CardId card, bool was_up) override {
    a_.flipped(s, card, was_up);
    b_.flipped(s, card, was_up);
  }
  void chose(const ri::State& s, ri::PlayerId p, std::int32_t rule, const ri::Value& choice, bool by_policy) override {
    a_.chose(s, p, rule, choice, by_policy);
    b_.chose(s, p, rule, choice, by_policy);
  }
  bool draw_result(const ri::State& s, std::int32_t rule, const std::vector<ri::Value>& options, std::size_t& index) override {
    return a_.draw_result(s, rule, options, index) || b_.draw_result(s, rule, options, index);
  }
  void drew(const ri::State& s, std::int32_t rule, const std::vector<ri::Value>& options, std::size_t index) override {
    a_.drew(s, rule, options, index);
    b_.drew(s, rule, options, index);
  }
  void round_ended(const ri::State& s) override {
    a_.round_ended(s);
    b_.round_ended(s);
  }
  void round_started(const ri::State& s) override {
    a_.round_started(s);
    b_.round_started(s);
  }
  void ended(const ri::State& s) override {
    a_.ended(s);
    b_.ended(s);
  }
  void stopped(const ri::State& s, std::int64_t max_moves) override {
    a_.stopped(s, max_moves);
    b_.stopped(s, max_moves);
  }

 private:
  ri::EventSink& a_;
  ri::EventSink& b_;
};

// What happened since `player`'s last choice, as it saw it.
void show_story(ri::Narrator& narrator, const ri::State& state, ri::PlayerId player, bool first, bool several_humans) {
  const std::vector<std::string> lines = narrator.take(state, player);
  if (lines.empty()) return;
  fmt::print("{}since {}:\n", several_humans ? fmt::format("player {}, ", player) : std::string(),
             first ? "the game began" : "your last choice");
  for (const std::string& line : lines) fmt::print("  - {}\n", line);
}

void show_view(const ri::Machine& machine, const ri::State& state, ri::PlayerId player, const std::vector<std::string>& names,
               bool first, bool debug) {
  const ri::Ir& ir = machine.ir();
  const ri::Decision& d = *state.decision;
  fmt::print("== player {} (seat {}), your choice", player, state.seat_of[static_cast<std::size_t>(player)]);
  if (d.rule >= 0) {
    fmt::print(": rule {} ({})", ir.labels[static_cast<std::size_t>(d.rule)], machine.where(ir.label_spans[static_cast<std::size_t>(d.rule)]));
  }
  fmt::print("\n");
  fmt::print("{}", ri::render_table_view(machine, state, ri::table_view(machine, state, player), names, ""));
  if (first) fmt::print("{}\n", ri::table_view_legend());
  if (debug) fmt::print("-- debug: the whole state, hidden cards included --\n{}\n", machine.summary(state));
}

int run_play(const PlayOptions& options) {
  int exit_code = kExitOk;
  const std::optional<ri::Machine> machine = load_machine(options.game.file, exit_code);
  if (!machine) return exit_code;
  const std::uint64_t random_seed = std::random_device{}();
  const std::optional<ri::GameConfig> config = game_config(options.game, random_seed);
  if (!config) return kExitBadInput;
  // Checked before the game: a path that cannot take the log was found after the last move.
  if (!options.log.empty()) {
    if (const std::string error = output_file_error(options.log); !error.empty()) {
      fmt::print(stderr, "error: --log: {}\n", error);
      return kExitBadInput;
    }
    if (const std::string error = input_overwrite_error(options.log); !error.empty()) {
      fmt::print(stderr, "error: --log {}\n", error);
      return kExitBadInput;
    }
  }
  std::set<int> humans(options.humans.begin(), options.humans.end());
  if (humans.empty()) humans.insert(0);
  ri::LogWriter log(*machine, *config);
  // Players are called by number (as the legal moves name them), for every seat the rules may have.
  std::vector<std::string> names;
  for (std::int64_t p = 0; p < machine->ir().seats; ++p) names.push_back(fmt::format("player {}", p));
  ri::Narrator narrator(*machine, std::vector<ri::PlayerId>(humans.begin(), humans.end()), names);
  BothSinks sinks(log, narrator);
  ri::State state;
  try {
    state = machine->start(*config, &sinks);
  } catch (const ri::ConfigError& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return kExitBadInput;
  }
  for (const int h : humans) {
    if (h < 0 || h >= state.num_seats) {
      fmt::print(stderr, "error: --human {}: the table has seats 0 to {}\n", h, state.num_seats - 1);
      return kExitBadInput;
    }
  }
  fmt::print("{} — seed {} (replay this game with --seed {})\n", machine->ir().title, config->seed, config->seed);
  ri::RandomAgent agent(config->seed ^ 0x5eed0a9e47ULL);
  bool abandoned = false;
  bool too_long = false;  // an answer line passed grammar::kMaxAnswerBytes
  std::set<int> told;  // the humans who have chosen once
  while (!state.finished) {
    const ri::PlayerId player = state.decision->player;
    if (humans.count(player) == 0) {
      machine->apply(state, agent.choose(machine->view(state, player, agent.detail())), &sinks);
      continue;
    }
    const ri::View view = machine->view(state, player, ri::ViewDetail::kDecisionOnly);
    fmt::print("\n");
    const bool first = told.insert(player).second;
    show_story(narrator, state, player, first, humans.size() > 1);
    show_view(*machine, state, player, names, first, options.debug);
    for (std::size_t i = 0; i < view.legal.size(); ++i) {
      fmt::print("  {:>3}) {}\n", i + 1, machine->move_text(state, i));
    }
    std::size_t picked = 0;
    for (;;) {
      fmt::print("choice (1-{}): ", view.legal.size());
      std::fflush(stdout);
      std::string line;
      const grammar::LineRead read = grammar::read_line(std::cin, line);
      if (read != grammar::LineRead::kLine) {
        if (read == grammar::LineRead::kTooLong) too_long = true;
        abandoned = true;
        break;
      }
      try {
        std::size_t used = 0;
        const long number = std::stol(line, &used);
        while (used < line.size() && std::isspace(static_cast<unsigned char>(line[used])) != 0) ++used;
        if (used == line.size() && number >= 1 && static_cast<std::size_t>(number) <= view.legal.size()) {
          picked = static_cast<std::size_t>(number - 1);
          break;
        }
      } catch (const std::exception&) {
      }
      // A move may also be typed as it is written: `draw`, `play 7H` (any case).
      const auto typed = [&](std::size_t i) {
        const std::string text = machine->move_text(state, i);
        std::string a = line, b = text;
        while (!a.empty() && std::isspace(static_cast<unsigned char>(a.back())) != 0) a.pop_back();
        for (char& c : a) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        for (char& c : b) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return a == b;
      };
      bool found = false;
      for (std::size_t i = 0; i < view.legal.size() && !found; ++i) {
        if (typed(i)) {
          picked = i;
          found = true;
        }
      }
      if (found) break;
      fmt::print("please type a number from 1 to {} or a move as listed\n", view.legal.size());
    }
    if (abandoned) break;
    machine->apply(state, picked, &sinks);
  }
  int result = kExitOk;
  if (abandoned) {
    if (too_long) {
      fmt::print(stderr, "\nerror: an answer is longer than {} bytes: the game is abandoned\n", grammar::kMaxAnswerBytes);
    } else {
      fmt::print(stderr, "\ninput ended: the game is abandoned\n");
    }
    result = kExitBadInput;
  } else if (state.fault) {
    const ri::Fault& f = *state.fault;
    fmt::print(stderr, "rule fault: {}\n  rule: {}\n  at: {}\n{}\n", f.message,
               f.rule >= 0 ? machine->ir().labels[static_cast<std::size_t>(f.rule)] : "(no labelled rule)",
               machine->where(f.span), machine->summary(state));
    result = kExitFinding;
  } else {
    fmt::print("\n");
    for (const int h : humans) show_story(narrator, state, h, told.count(h) == 0, humans.size() > 1);
    std::vector<std::string> winners;
    for (const ri::PlayerId w : state.winners) winners.push_back(fmt::format("player {}", w));
    fmt::print("\ngame over after {} round{}: {}\n", state.rounds, state.rounds == 1 ? "" : "s",
               winners.empty() ? "no winner" : fmt::format("{} won", fmt::join(winners, ", ")));
    const auto scores = machine->scores(state);
    for (std::size_t i = 0; i < scores.size(); ++i) {
      std::vector<std::string> values;
      for (const ri::ScoreValue& v : scores[i]) values.push_back(ri::score_text(v));
      fmt::print("  {}: {}\n", machine->ir().scores[i].name, fmt::join(values, ", "));
    }
    for (std::size_t i = 0; i < state.payoffs.size(); ++i) {
      std::vector<std::string> values;
      for (const ri::Rational& r : state.payoffs[i]) values.push_back(ri::to_string(r));
      fmt::print("  payoff {}: {}\n", machine->ir().payoffs[i].name, fmt::join(values, ", "));
    }
  }
  if (!options.log.empty()) {
    const std::string error = write_file_atomically(options.log, log.text());
    if (!error.empty()) {
      fmt::print(stderr, "error: {}\n", error);
      return kExitBadInput;
    }
    fmt::print("log written to {}\n", options.log);
  }
  return result;
}

}  // namespace

void add_play_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<PlayOptions>();
  CLI::App* cmd = app.add_subcommand("play", "Play a game at the terminal against random agents");
  add_game_options(*cmd, options->game);
  cmd->add_option("--human", options->humans, "A seat you play (repeatable; default: seat 0)")
      ->transform(whole_number(0, 63));
  cmd->add_option("--log", options->log, "Write the game's log to this file")->check(output_path());
  cmd->add_flag("--debug", options->debug, "Also print the whole state at each choice: every card (hidden ones too) and every variable");
  cmd->callback([options, &exit_code] { exit_code = run_play(*options); });
}

}  // namespace rulebook::cli
