// `rulebook play FILE`: a game at the terminal. Human seats see their own view and a
// numbered list of legal moves; the other seats are random agents.
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
#include "rulebook/interpreter/agent.hpp"
#include "rulebook/interpreter/log.hpp"

namespace rulebook::cli {

namespace {

namespace ri = rulebook::interpreter;

struct PlayOptions {
  GameOptions game;
  std::vector<int> humans;
  std::string log;
};

void show_view(const ri::Machine& machine, const ri::State& state, const ri::View& view) {
  const ri::Ir& ir = machine.ir();
  fmt::print("\n== round {}, player {} (seat {}) to choose", view.rounds, view.viewer,
             view.seat_of[static_cast<std::size_t>(view.viewer)]);
  if (view.rule >= 0) {
    fmt::print(": rule {} ({})", ir.labels[static_cast<std::size_t>(view.rule)],
               machine.where(ir.label_spans[static_cast<std::size_t>(view.rule)]));
  }
  fmt::print("\n");
  for (const ri::ZoneView& z : view.zones) {
    if (z.cards.empty()) continue;
    std::vector<std::string> cards;
    for (std::size_t i = 0; i < z.cards.size(); ++i) {
      cards.push_back(z.cards[i] ? machine.card_name(state, *z.cards[i]) + (z.face_up[i] ? "" : "*") : "##");
    }
    fmt::print("  {:<18} {}\n", z.name, fmt::join(cards, " "));
  }
  std::vector<std::string> vars;
  for (const auto& [name, value] : view.vars) vars.push_back(fmt::format("{}={}", name, machine.value_text(state, value)));
  fmt::print("  {}\n", fmt::join(vars, "  "));
  fmt::print("(## a card you cannot see, * face down; piles bottom to top)\n");
}

int run_play(const PlayOptions& options) {
  int exit_code = kExitOk;
  const std::optional<ri::Machine> machine = load_machine(options.game.file, exit_code);
  if (!machine) return exit_code;
  const std::uint64_t random_seed = std::random_device{}();
  const std::optional<ri::GameConfig> config = game_config(options.game, random_seed);
  if (!config) return kExitBadInput;
  std::set<int> humans(options.humans.begin(), options.humans.end());
  if (humans.empty()) humans.insert(0);
  ri::LogWriter log(*machine, *config);
  ri::State state;
  try {
    state = machine->start(*config, &log);
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
  while (!state.finished) {
    const ri::PlayerId player = state.decision->player;
    if (humans.count(player) == 0) {
      machine->apply(state, agent.choose(machine->view(state, player, agent.detail())), &log);
      continue;
    }
    const ri::View view = machine->view(state, player);
    show_view(*machine, state, view);
    for (std::size_t i = 0; i < view.legal.size(); ++i) {
      fmt::print("  {:>3}) {}\n", i + 1, machine->value_text(state, view.legal[i]));
    }
    std::size_t picked = 0;
    for (;;) {
      fmt::print("choice (1-{}): ", view.legal.size());
      std::fflush(stdout);
      std::string line;
      if (!std::getline(std::cin, line)) {
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
      fmt::print("please type a number from 1 to {}\n", view.legal.size());
    }
    if (abandoned) break;
    machine->apply(state, picked, &log);
  }
  int result = kExitOk;
  if (abandoned) {
    fmt::print(stderr, "\ninput ended: the game is abandoned\n");
    result = kExitBadInput;
  } else if (state.fault) {
    const ri::Fault& f = *state.fault;
    fmt::print(stderr, "rule fault: {}\n  rule: {}\n  at: {}\n{}\n", f.message,
               f.rule >= 0 ? machine->ir().labels[static_cast<std::size_t>(f.rule)] : "(no labelled rule)",
               machine->where(f.span), machine->summary(state));
    result = kExitFinding;
  } else {
    std::vector<std::string> winners;
    for (const ri::PlayerId w : state.winners) winners.push_back(fmt::format("player {}", w));
    fmt::print("\ngame over after {} round{}: {}\n", state.rounds, state.rounds == 1 ? "" : "s",
               winners.empty() ? "no winner" : fmt::format("{} won", fmt::join(winners, ", ")));
    const auto scores = machine->scores(state);
    for (std::size_t i = 0; i < scores.size(); ++i) {
      fmt::print("  {}: {}\n", machine->ir().scores[i].name, fmt::join(scores[i], ", "));
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
  cmd->add_option("--log", options->log, "Write the game's log to this file");
  cmd->callback([options, &exit_code] { exit_code = run_play(*options); });
}

}  // namespace rulebook::cli
