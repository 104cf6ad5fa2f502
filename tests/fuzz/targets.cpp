// The fuzz targets' bodies (see targets.hpp).
#include "fuzz/targets.hpp"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "rulebook/authoring/format.hpp"
#include "rulebook/grammar/check.hpp"
#include "rulebook/grammar/dump.hpp"
#include "rulebook/grammar/load.hpp"
#include "rulebook/grammar/parse.hpp"
#include "rulebook/ir/lower.hpp"
#include "rulebook/interpreter/machine.hpp"
#include "rulebook/logs/replay.hpp"

namespace rulebook::fuzz {

namespace {

namespace ri = rulebook::interpreter;

[[noreturn]] void oracle_failed(const char* what, std::string_view detail) {
  std::fprintf(stderr, "fuzz oracle failed: %s\n%.*s\n", what, static_cast<int>(detail.size()), detail.data());
  std::abort();
}

// A shipped ruleset, loaded once.
struct Shipped {
  grammar::SourceManager sources;
  std::unique_ptr<ri::Machine> machine;
};

const Shipped& shipped(int which) {
  static const Shipped* rulesets = [] {
    auto* all = new Shipped[2];
    const char* const paths[] = {RULEBOOK_SOURCE_DIR "/rulesets/molestation-game.rules",
                                 RULEBOOK_SOURCE_DIR "/rulesets/clusterfk.rules"};
    for (int i = 0; i < 2; ++i) {
      grammar::Diagnostics diagnostics;
      const grammar::LoadResult loaded = grammar::load_ruleset(paths[i], all[i].sources, diagnostics);
      if (loaded.status != grammar::LoadStatus::kOk) oracle_failed("a shipped ruleset does not load", paths[i]);
      all[i].machine = std::make_unique<ri::Machine>(ri::lower(*loaded.program, all[i].sources));
    }
    return all;
  }();
  return rulesets[which];
}

// Moves of the game a checked rule file plays.
constexpr std::size_t kRulesGameMoves = 64;


// Stops the game once it has run kRulesGameSteps instructions.
class StepBudget final : public ri::EventSink {
 public:
  [[nodiscard]] bool observes_steps() const override { return true; }
  void stepping(const ri::State& /*state*/) override { ++steps_; }
  [[nodiscard]] ri::SinkVerdict verdict() const override {
    return steps_ >= kRulesGameSteps ? ri::SinkVerdict::kStop : ri::SinkVerdict::kContinue;
  }
  [[nodiscard]] std::int64_t steps() const { return steps_; }

 private:
  std::int64_t steps_ = 0;
};

}  // namespace

std::int64_t rules_one_steps(const std::uint8_t* data, std::size_t size) {
  grammar::SourceManager sources;
  const grammar::FileId id = sources.add("fuzz.rules", std::string(reinterpret_cast<const char*>(data), size));
  grammar::Diagnostics diagnostics;
  grammar::ast::RulesFile file = grammar::parse_rules(sources, id, diagnostics);
  if (diagnostics.has_errors()) return 0;
  // The formatter's promise: its output means the same file, and is already formatted.
  const std::string formatted = authoring::format_rules(file, sources.file(id));
  grammar::SourceManager again;
  const grammar::FileId again_id = again.add("formatted.rules", formatted);
  grammar::Diagnostics again_diagnostics;
  const grammar::ast::RulesFile reparsed = grammar::parse_rules(again, again_id, again_diagnostics);
  if (again_diagnostics.has_errors()) oracle_failed("the formatted file does not parse", formatted);
  if (grammar::dump_ast(reparsed) != grammar::dump_ast(file)) oracle_failed("formatting changed the meaning", formatted);
  if (authoring::format_rules(reparsed, again.file(again_id)) != formatted) oracle_failed("formatting is not idempotent", formatted);
  // A variant needs its base from disk: checking stops at the parse.
  if (file.kind != grammar::ast::FileKind::kGame) return 0;
  const std::optional<grammar::Program> program = grammar::check_program(std::move(file), diagnostics);
  if (!program) return 0;
  // A short game, so that what lowering builds is also run: its deepest expressions are
  // evaluated, its loops stopped by the interpreter's own limits.
  const ri::Machine machine(ri::lower(*program, sources));
  ri::GameConfig config;
  config.players = machine.ir().players_min;
  StepBudget budget;
  ri::State state;
  try {
    state = machine.start(config, &budget);
  } catch (const ri::ConfigError&) {
    // A card count computed by an expression is checked when a game starts (language.md): a
    // count out of range is the command's error there (exit 2), not a crash.
    return 0;
  }
  for (std::size_t move = 0; move < kRulesGameMoves && !state.finished && budget.verdict() == ri::SinkVerdict::kContinue;
       ++move) {
    const std::size_t legal = machine.legal_moves(state).size();
    if (legal == 0) oracle_failed("a game waits for a move with no legal move", machine.summary(state));
    (void)machine.apply(state, move % legal, &budget);
  }
  return budget.steps();
}

void rules_one(const std::uint8_t* data, std::size_t size) { (void)rules_one_steps(data, size); }

void replay_one(const std::uint8_t* data, std::size_t size) {
  for (int which = 0; which < 2; ++which) {
    const Shipped& rules = shipped(which);
    grammar::SourceManager sources = rules.sources;
    const grammar::FileId log = sources.add("fuzz.jsonl", std::string(reinterpret_cast<const char*>(data), size));
    for (const bool partial : {false, true}) {
      ri::ReplayOptions options;
      options.partial = partial;
      options.trace = true;
      (void)ri::replay(*rules.machine, sources, log, options);
    }
  }
}

void apply_one(const std::uint8_t* data, std::size_t size) {
  if (size < 10) return;
  const Shipped& rules = shipped(data[0] % 2);
  const ri::Ir& ir = rules.machine->ir();
  ri::GameConfig config;
  config.players = ir.players_min + data[1] % (ir.players_max - ir.players_min + 1);
  for (int i = 2; i < 10; ++i) config.seed = (config.seed << 8) | data[i];
  ri::State state = rules.machine->start(config);
  const std::size_t cards = state.cards->size();
  for (std::size_t i = 10; i < size && !state.finished; ++i) {
    const auto& legal = rules.machine->legal_moves(state);
    if (legal.empty()) oracle_failed("a game waits for a move with no legal move", rules.machine->summary(state));
    const ri::PlayerId player = state.decision->player;
    (void)rules.machine->view(state, player);
    (void)rules.machine->value_text(state, legal[data[i] % legal.size()]);
    rules.machine->apply(state, data[i] % legal.size());
    std::size_t placed = 0;
    for (const auto& zone : state.zones) placed += zone.size();
    if (placed != cards) oracle_failed("a card was lost or doubled", rules.machine->summary(state));
  }
  if (state.finished && !state.fault) (void)rules.machine->scores(state);
}

}  // namespace rulebook::fuzz
