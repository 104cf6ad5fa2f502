#include "interpreter/game_fixture.hpp"

#include <algorithm>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "rulebook/grammar/check.hpp"
#include "rulebook/grammar/load.hpp"
#include "rulebook/grammar/parse.hpp"
#include "rulebook/ir/lower.hpp"
#include "support.hpp"

namespace rulebook::test {

namespace ri = rulebook::interpreter;

std::shared_ptr<ri::Machine> machine_for(const std::string& text) {
  grammar::SourceManager sources;
  grammar::Diagnostics diagnostics;
  const grammar::FileId id = sources.add("test.rules", text);
  auto file = grammar::parse_rules(sources, id, diagnostics);
  std::optional<grammar::Program> program;
  if (!diagnostics.has_errors()) program = grammar::check_program(std::move(file), diagnostics);
  std::string rendered;
  for (const auto& d : diagnostics.items()) rendered += grammar::render_text(d, sources, false);
  INFO(rendered);
  REQUIRE(program.has_value());
  return std::make_shared<ri::Machine>(ri::lower(*program, sources));
}

std::shared_ptr<ri::Machine> machine_for_file(const std::string& relative) {
  grammar::SourceManager sources;
  grammar::Diagnostics diagnostics;
  const auto result = grammar::load_ruleset(source_path(relative), sources, diagnostics);
  REQUIRE(result.status == grammar::LoadStatus::kOk);
  return std::make_shared<ri::Machine>(ri::lower(*result.program, sources));
}

namespace {

const ri::VarInfo& find_var(const ri::Ir& ir, const std::string& name) {
  const auto it = std::find_if(ir.vars.begin(), ir.vars.end(), [&](const ri::VarInfo& v) { return v.name == name; });
  INFO("variable " << name);
  REQUIRE(it != ir.vars.end());
  return *it;
}

std::int32_t find_zone_instance(const ri::Ir& ir, const std::string& name, int player) {
  for (std::size_t z = 0; z < ir.zones.size(); ++z) {
    if (ir.zones[z].name == name) return ir.zone_instance(static_cast<std::int32_t>(z), player < 0 ? 0 : player);
  }
  FAIL("no zone " << name);
  return -1;
}

}  // namespace

std::string Game::var(const std::string& name, int player) const {
  const ri::VarInfo& v = find_var(machine->ir(), name);
  const auto slot = static_cast<std::size_t>(v.first_slot + (v.per_player ? player : 0));
  return machine->value_text(state, state.vars[slot]);
}

std::int64_t Game::int_var(const std::string& name, int player) const {
  const ri::VarInfo& v = find_var(machine->ir(), name);
  return state.vars[static_cast<std::size_t>(v.first_slot + (v.per_player ? player : 0))].scalar;
}

std::vector<std::string> Game::zone(const std::string& name, int player) const {
  const std::int32_t instance = find_zone_instance(machine->ir(), name, player);
  std::vector<ri::CardId> cards = state.zones[static_cast<std::size_t>(instance)];
  // A set zone has no order: its cards are listed in card order, as the rules walk them.
  if (machine->ir().instance_is_pile[static_cast<std::size_t>(instance)] == 0) std::sort(cards.begin(), cards.end());
  std::vector<std::string> out;
  for (const ri::CardId c : cards) out.push_back(machine->card_name(state, c));
  return out;
}

std::string Game::zone_text(const std::string& name, int player) const {
  return fmt::format("{}", fmt::join(zone(name, player), " "));
}

std::vector<std::string> Game::legal() const {
  std::vector<std::string> out;
  // As a move is written: the value, or `draw` / `play 7H` for a decision with alternatives.
  for (std::size_t i = 0; i < machine->legal_moves(state).size(); ++i) out.push_back(machine->move_text(state, i));
  return out;
}

void Game::choose(const std::string& choice) {
  const auto options = legal();
  const auto it = std::find(options.begin(), options.end(), choice);
  INFO("choice " << choice << " among " << fmt::format("{}", fmt::join(options, ", ")));
  REQUIRE(it != options.end());
  machine->apply(state, static_cast<std::size_t>(it - options.begin()));
}

std::string Game::fault_rule() const {
  if (!state.fault || state.fault->rule < 0) return "";
  return machine->ir().labels[static_cast<std::size_t>(state.fault->rule)];
}

Game start_game(const std::string& text, std::int64_t players, std::uint64_t seed,
                std::map<std::string, std::string> options) {
  Game g;
  g.machine = machine_for(text);
  ri::GameConfig config;
  config.players = players;
  config.seed = seed;
  config.options = std::move(options);
  g.state = g.machine->start(config);
  return g;
}

std::string eval_text(const std::string& type, const std::string& expression, const std::string& setup) {
  std::string init = "0";
  if (type == "bool") init = "false";
  if (type == "player") init = "seat 0";
  if (type.rfind("set of", 0) == 0) init = "{}";
  if (type == "card" || type == "suit" || type == "color" || type == "kind") init = "none";
  const std::string text = fmt::format(
      "game \"probe\"\nplayers 3\nseats 4\ncards {{\n  standard52\n  jokers 2\n}}\n"
      "zone deck: pile public\nzone hand(p): set owner\nzone pile_of(p): pile hidden\n"
      "var n: int = 0\nvar probe: {} = {}\n"
      "setup {{\n{}\n  set probe := {}\n}}\nround {{\n  end game\n}}\n",
      type, init, setup, expression);
  Game g = start_game(text);
  INFO(text);
  if (g.state.fault) FAIL("fault: " << g.state.fault->message);
  return g.var("probe");
}

void stack(Game& game, const std::string& zone, int player, const std::vector<std::string>& names) {
  const std::int32_t instance = find_zone_instance(game.machine->ir(), zone, player);
  for (const std::string& written : names) {
    const bool down = !written.empty() && written.back() == '*';
    const std::string name = down ? written.substr(0, written.size() - 1) : written;
    const ri::CardId c = game.machine->card_by_name(game.state, name);
    INFO("card " << name);
    REQUIRE(c >= 0);
    auto& from = game.state.zones[static_cast<std::size_t>(game.state.card_zone[static_cast<std::size_t>(c)])];
    from.erase(std::find(from.begin(), from.end(), c));
    game.state.zones[static_cast<std::size_t>(instance)].push_back(c);
    game.state.card_zone[static_cast<std::size_t>(c)] = instance;
    game.state.card_face_up[static_cast<std::size_t>(c)] = down ? 0 : 1;
  }
}

void empty_into(Game& game, const std::string& zone, int player, const std::string& target) {
  std::vector<std::string> names = game.zone(zone, player);
  for (std::string& n : names) n += "*";
  stack(game, target, -1, names);
}

void play_first_moves_until(Game& game, const std::function<bool(const Game&)>& done, bool allow_fault) {
  for (int i = 0; i < 100000 && !game.state.finished && !done(game); ++i) game.machine->apply(game.state, 0);
  if (game.state.fault && !allow_fault) FAIL("fault: " << game.state.fault->message);
}

}  // namespace rulebook::test
