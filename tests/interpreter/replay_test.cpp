// Replay: simulated logs replay to the same final state, a changed move is caught at exactly
// its step, and every kind of bad log gets its own message at its own line.
#include <algorithm>
#include <set>
#include <sstream>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "rulebook/grammar/load.hpp"
#include "rulebook/interpreter/agent.hpp"
#include "rulebook/logs/log.hpp"
#include "rulebook/ir/lower.hpp"
#include "rulebook/logs/replay.hpp"
#include "rulebook/interpreter/simulate.hpp"
#include "support.hpp"

namespace ri = rulebook::interpreter;
namespace rg = rulebook::grammar;
using nlohmann::json;

namespace interpreter_replay_test {  // this file's own names (unity builds put several files in one)
namespace {

// A ruleset loaded with its sources kept, so that replay diagnostics can quote rule lines.
struct Ruleset {
  rg::SourceManager sources;
  std::shared_ptr<ri::Machine> machine;
};

std::shared_ptr<Ruleset> load(const std::string& relative) {
  auto r = std::make_shared<Ruleset>();
  rg::Diagnostics diagnostics;
  const auto result = rg::load_ruleset(rulebook::test::source_path(relative), r->sources, diagnostics);
  REQUIRE(result.status == rg::LoadStatus::kOk);
  r->machine = std::make_shared<ri::Machine>(ri::lower(*result.program, r->sources));
  return r;
}

struct Replayed {
  ri::ReplayResult result;
  std::string rendered;  // the diagnostics as text
  [[nodiscard]] const rg::Diagnostic* error() const {
    for (const auto& d : result.diagnostics.items()) {
      if (d.severity == rg::Severity::kError) return &d;
    }
    return nullptr;
  }
};

Replayed replay_text(Ruleset& rules, const std::string& log, ri::ReplayOptions options = {}) {
  rg::SourceManager sources = rules.sources;  // the log is added to a copy
  const rg::FileId id = sources.add("game.jsonl", log);
  Replayed r{ri::replay(*rules.machine, sources, id, options), ""};
  for (const auto& d : r.result.diagnostics.items()) r.rendered += rg::render_text(d, sources, false);
  return r;
}

// One decision of a recorded game: the moves that were legal and the step number it had.
struct RecordedMove {
  std::int64_t step = 0;
  std::vector<ri::Value> legal;
  ri::PlayerId player = -1;
};

struct RecordedGame {
  std::string log;
  ri::State final_state;
  std::vector<RecordedMove> moves;  // the human decisions, in order
};

// A random game, with its log and what was legal at each human decision.
RecordedGame record_game(const ri::Machine& machine, const ri::GameConfig& config) {
  RecordedGame game;
  ri::LogWriter writer(machine, config);
  ri::State state = machine.start(config, &writer);
  ri::RandomAgent agent(config.seed ^ 0x5eed0a9e47ULL);
  while (!state.finished) {
    const ri::View view = machine.view(state, state.decision->player, ri::ViewDetail::kDecisionOnly);
    game.moves.push_back(RecordedMove{state.moves + 1, state.decision->options, state.decision->player});
    machine.apply(state, agent.choose(view), &writer);
  }
  game.log = writer.text();
  game.final_state = std::move(state);
  return game;
}

void require_same_state(const ri::State& a, const ri::State& b) {
  REQUIRE(a.zones == b.zones);
  REQUIRE(a.card_face_up == b.card_face_up);
  REQUIRE(a.seat_of == b.seat_of);
  REQUIRE(a.winners == b.winners);
  REQUIRE(a.rounds == b.rounds);
  REQUIRE(a.moves == b.moves);
  REQUIRE(a.vars.size() == b.vars.size());
  for (std::size_t i = 0; i < a.vars.size(); ++i) REQUIRE(ri::equal(a.vars[i], b.vars[i]));
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

// Changes human move `k` of `game` so that it is illegal: another choice of the same kind
// that was not legal there, or else another player. Returns the changed log's line number.
std::size_t tamper(const ri::Machine& machine, RecordedGame& game, std::size_t k, std::vector<std::string>& lines,
                   std::uint64_t salt) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    json line = json::parse(lines[i]);
    if (!line.contains("move") || seen++ != k) continue;
    const RecordedMove& m = game.moves[k];
    const ri::Value& shape = m.legal.front();
    const auto is_legal = [&](std::int64_t x) {
      return std::any_of(m.legal.begin(), m.legal.end(), [&](const ri::Value& v) { return v.scalar == x; });
    };
    bool changed = false;
    if (shape.kind == ri::Kind::kCard && salt % 2 == 0) {
      for (std::int64_t c = static_cast<std::int64_t>(salt % 7); c < static_cast<std::int64_t>(game.final_state.cards->size()); ++c) {
        if (is_legal(c)) continue;
        line["move"]["choice"] = machine.card_name(game.final_state, static_cast<ri::CardId>(c));
        changed = true;
        break;
      }
    } else if (shape.kind == ri::Kind::kPlayer && salt % 2 == 0) {
      for (std::int64_t p = 0; p < game.final_state.num_seats; ++p) {
        if (is_legal(p)) continue;
        line["move"]["choice"] = p;
        changed = true;
        break;
      }
    }
    if (!changed) line["move"]["player"] = (m.player + 1) % game.final_state.num_seats;
    lines[i] = line.dump();
    return i + 1;
  }
  FAIL("no move " << k);
  return 0;
}

void round_trip(const std::string& ruleset, std::int64_t players, std::int64_t games) {
  const auto rules = load(ruleset);
  std::int64_t tampered = 0;
  for (std::int64_t g = 0; g < games; ++g) {
    ri::GameConfig config;
    config.players = players;
    config.seed = ri::game_seed(77, static_cast<std::uint64_t>(g));
    RecordedGame game = record_game(*rules->machine, config);
    INFO(fmt::format("{} players, game {} (seed {})", players, g, config.seed));
    const Replayed r = replay_text(*rules, game.log);
    INFO(r.rendered);
    REQUIRE(r.result.outcome == ri::ReplayOutcome::kOk);
    REQUIRE(r.result.ended);
    REQUIRE(r.result.steps == game.final_state.moves);
    require_same_state(*r.result.final_state, game.final_state);

    // Every tenth game: one human move changed to an illegal one is caught at its step.
    if (g % 10 != 0 || game.moves.empty()) continue;
    const std::size_t k = static_cast<std::size_t>(config.seed % game.moves.size());
    std::vector<std::string> lines = lines_of(game.log);
    const std::size_t line = tamper(*rules->machine, game, k, lines, config.seed / 7);
    const Replayed t = replay_text(*rules, join_lines(lines));
    INFO(t.rendered);
    REQUIRE(t.result.outcome == ri::ReplayOutcome::kIllegal);
    REQUIRE(t.error() != nullptr);
    CHECK(t.error()->span.line == line);
    CHECK_THAT(t.error()->message, Catch::StartsWith(fmt::format("step {}:", game.moves[k].step)));
    CHECK(t.result.steps == game.moves[k].step - 1);
    ++tampered;
  }
  // Games 0, 10, 20, ...: a tenth, rounded up (15 games under the sanitizers' divisor tamper 2).
  CHECK(tampered == (games + 9) / 10);
}

// A short game to break in the bad-log cases below.
struct Sample {
  std::shared_ptr<Ruleset> rules;
  RecordedGame game;
  std::vector<std::string> lines;
};

Sample sample() {
  Sample s;
  s.rules = load("rulesets/clusterfk.rules");
  ri::GameConfig config;
  config.players = 4;
  config.seed = 11;
  s.game = record_game(*s.rules->machine, config);
  s.lines = lines_of(s.game.log);
  return s;
}

std::size_t first_line(const std::vector<std::string>& lines, const std::string& key) {
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find("\"" + key + "\"") != std::string::npos && i > 0) return i;
  }
  FAIL("no line with " << key);
  return 0;
}

// Replays `lines` and requires a bad log reported at `line` (1-based) with `text` in the message.
void require_bad(Sample& s, const std::vector<std::string>& lines, std::size_t line, const std::string& text,
                 ri::ReplayOptions options = {}) {
  const Replayed r = replay_text(*s.rules, join_lines(lines), options);
  INFO(r.rendered);
  REQUIRE(r.result.outcome == ri::ReplayOutcome::kBadLog);
  REQUIRE(r.error() != nullptr);
  CHECK(r.error()->code == rulebook::grammar::Code::kMalformedLog);
  CHECK(r.error()->span.line == line);
  CHECK_THAT(r.error()->message, Catch::Contains(text));
}

}  // namespace

TEST_CASE("replay round trip: Molestation Game, 2 players", "[replay]") { round_trip("rulesets/molestation-game.rules", 2, rulebook::test::games(1000)); }
TEST_CASE("replay round trip: Molestation Game, 3 players", "[replay]") { round_trip("rulesets/molestation-game.rules", 3, rulebook::test::games(1000)); }
TEST_CASE("replay round trip: Molestation Game, 4 players", "[replay]") { round_trip("rulesets/molestation-game.rules", 4, rulebook::test::games(1000)); }
TEST_CASE("replay round trip: Clusterfk, 4 players", "[replay][long]") { round_trip("rulesets/clusterfk.rules", 4, rulebook::test::games(1000)); }
TEST_CASE("replay round trip: Clusterfk, 5 players", "[replay][long]") { round_trip("rulesets/clusterfk.rules", 5, rulebook::test::games(1000)); }
TEST_CASE("replay round trip: Clusterfk, 6 players", "[replay][long]") { round_trip("rulesets/clusterfk.rules", 6, rulebook::test::games(1000)); }
// At 7 and 8 players a game is 10,000 and 16,000 moves on average, seven and ten times one at 4
// players (1,500), so 300 games replay more moves than the 1,000 of the smaller counts (1,000
// took 55 s and 103 s of the release half's tests).
TEST_CASE("replay round trip: Clusterfk, 7 players", "[replay][long]") { round_trip("rulesets/clusterfk.rules", 7, rulebook::test::games(300, 2)); }
TEST_CASE("replay round trip: Clusterfk, 8 players", "[replay][long]") { round_trip("rulesets/clusterfk.rules", 8, rulebook::test::games(300, 2)); }

TEST_CASE("replay: a recorded log replays, and its trace names each step's rule and line", "[replay]") {
  Sample s = sample();
  ri::ReplayOptions options;
  options.trace = true;
  const Replayed r = replay_text(*s.rules, s.game.log, options);
  REQUIRE(r.result.outcome == ri::ReplayOutcome::kOk);
  REQUIRE(r.result.trace.size() == static_cast<std::size_t>(s.game.final_state.moves));
  const ri::ReplayStep& first = r.result.trace.front();
  CHECK(first.step == 1);
  CHECK(first.rule == "pass_or_slam");
  CHECK_THAT(first.at, Catch::Contains("clusterfk.rules:"));
  CHECK(first.line == first_line(s.lines, "move") + 1);
}

TEST_CASE("replay bad log: truncated (the last line cut off)", "[replay]") {
  Sample s = sample();
  std::string text = s.game.log.substr(0, s.game.log.size() - 20);
  const std::size_t line = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  std::vector<std::string> lines = lines_of(text);
  const Replayed r = replay_text(*s.rules, text);
  REQUIRE(r.result.outcome == ri::ReplayOutcome::kBadLog);
  CHECK(r.error()->span.line == line);
  CHECK_THAT(r.error()->message, Catch::Contains("truncated"));
}

TEST_CASE("replay bad log: a log that stops before the game ends needs --partial", "[replay]") {
  Sample s = sample();
  std::vector<std::string> lines(s.lines.begin(), s.lines.begin() + static_cast<std::ptrdiff_t>(first_line(s.lines, "move") + 3));
  require_bad(s, lines, lines.size(), "ends before the game does");
  ri::ReplayOptions partial;
  partial.partial = true;
  const Replayed r = replay_text(*s.rules, join_lines(lines), partial);
  CHECK(r.result.outcome == ri::ReplayOutcome::kOk);
  CHECK_FALSE(r.result.ended);
}

TEST_CASE("replay bad log: a line that is not JSON", "[replay]") {
  Sample s = sample();
  auto lines = s.lines;
  const std::size_t i = first_line(lines, "move");
  lines[i] = "{\"move\": {\"player\": 0,, }}";
  require_bad(s, lines, i + 1, "not JSON");
}

TEST_CASE("replay bad log: an unknown format version", "[replay]") {
  Sample s = sample();
  auto lines = s.lines;
  json header = json::parse(lines[0]);
  header["version"] = 2;
  lines[0] = header.dump();
  require_bad(s, lines, 1, "unknown log format version 2");
}

TEST_CASE("replay bad log: not a log at all, or empty", "[replay]") {
  Sample s = sample();
  require_bad(s, {"{\"move\":{\"player\":0,\"choice\":1}}"}, 1, "not a rulebook log");
  require_bad(s, {}, 1, "the log is empty");
  require_bad(s, {s.lines[0], "{\"hello\":1}"}, 2, "unknown kind of line");
}

TEST_CASE("replay bad log: a ruleset hash that differs warns, and is an error with --strict", "[replay]") {
  Sample s = sample();
  auto lines = s.lines;
  json header = json::parse(lines[0]);
  header["hash"] = "0000000000000000";
  lines[0] = header.dump();
  const Replayed r = replay_text(*s.rules, join_lines(lines));
  CHECK(r.result.outcome == ri::ReplayOutcome::kOk);
  REQUIRE(r.result.diagnostics.warning_count() == 1);
  CHECK_THAT(r.rendered, Catch::Contains("written for other rule files"));
  ri::ReplayOptions strict;
  strict.strict = true;
  require_bad(s, lines, 1, "--strict", strict);
}

TEST_CASE("replay bad log: a card that does not exist, or appears twice", "[replay]") {
  Sample s = sample();
  const std::size_t i = first_line(s.lines, "shuffle");
  json shuffle = json::parse(s.lines[i]);
  auto lines = s.lines;
  json unknown = shuffle;
  unknown["cards"][3] = "note999";
  lines[i] = unknown.dump();
  require_bad(s, lines, i + 1, "no card 'note999'");
  json twice = shuffle;
  twice["cards"][3] = twice["cards"][4];
  lines[i] = twice.dump();
  require_bad(s, lines, i + 1, "appears twice");
  json short_list = shuffle;
  short_list["cards"].erase(short_list["cards"].begin());
  lines[i] = short_list.dump();
  require_bad(s, lines, i + 1, "leaves out");
}

TEST_CASE("replay bad log: a deal that does not match the rules' setup", "[replay]") {
  Sample s = sample();
  auto lines = s.lines;
  const std::size_t i = first_line(lines, "deal");
  json deal = json::parse(lines[i]);
  std::swap(deal["deal"]["cards"][0], deal["deal"]["cards"][1]);
  lines[i] = deal.dump();
  require_bad(s, lines, i + 1, "do not give this deal");
}

TEST_CASE("replay bad log: a missing shuffle result", "[replay]") {
  Sample s = sample();
  auto lines = s.lines;
  const std::size_t i = first_line(lines, "shuffle");
  lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(i));
  require_bad(s, lines, i + 1, "a log gives the result of every shuffle");
}

TEST_CASE("replay bad log: an unknown seat", "[replay]") {
  Sample s = sample();
  auto lines = s.lines;
  const std::size_t i = first_line(lines, "move");
  json move = json::parse(lines[i]);
  move["move"]["player"] = 9;
  lines[i] = move.dump();
  require_bad(s, lines, i + 1, "unknown seat 9");
  move["move"]["player"] = "Zed";
  lines[i] = move.dump();
  require_bad(s, lines, i + 1, "unknown seat 'Zed'");
}

TEST_CASE("replay bad log: a move after the game ended", "[replay]") {
  Sample s = sample();
  auto lines = s.lines;
  lines.push_back(lines[first_line(lines, "move")]);
  require_bad(s, lines, lines.size(), "after the game ended");
}

TEST_CASE("replay: a result the rules do not give is an illegal step", "[replay]") {
  Sample s = sample();
  auto lines = s.lines;
  json end = json::parse(lines.back());
  REQUIRE(end.contains("end"));
  end["end"]["winners"] = json::array({0, 1, 2, 3});
  lines.back() = end.dump();
  const Replayed r = replay_text(*s.rules, join_lines(lines));
  REQUIRE(r.result.outcome == ri::ReplayOutcome::kIllegal);
  CHECK(r.error()->span.line == lines.size());
  CHECK(r.error()->code == rulebook::grammar::Code::kWrongResult);
  CHECK_THAT(r.error()->message, Catch::Contains("by the rules the winners are"));
}

TEST_CASE("replay: an illegal move names the rule's source line and the legal moves", "[replay]") {
  Sample s = sample();
  auto lines = s.lines;
  // The first pass of a card: made illegal by passing a card the player does not hold.
  std::size_t i = 0;
  while (lines[i].find("\"choice\":\"note") == std::string::npos) ++i;
  json move = json::parse(lines[i]);
  const std::string card = move["move"]["choice"] == "note40" ? "note39" : "note40";
  move["move"]["choice"] = card;
  lines[i] = move.dump();
  const Replayed r = replay_text(*s.rules, join_lines(lines));
  INFO(r.rendered);
  REQUIRE(r.result.outcome == ri::ReplayOutcome::kIllegal);
  CHECK(r.error()->span.line == i + 1);
  CHECK(r.error()->code == rulebook::grammar::Code::kIllegalChoice);
  CHECK_THAT(r.rendered, Catch::Contains("[E0605]"));
  CHECK_THAT(r.rendered, Catch::Contains("clusterfk.rules:"));
  CHECK_THAT(r.rendered, Catch::Contains(card + " is in "));
  CHECK_THAT(r.rendered, Catch::Contains("legal here for player "));
}

TEST_CASE("replay: seats by name, partial shuffles, comments and optional lines (a log written by hand)", "[replay]") {
  Sample s = sample();
  const std::vector<std::string> names{"Ann", "Bob", "Cy", "Dee"};
  std::vector<std::string> lines{"// a game at the table, written down afterwards"};
  json hand_header = {{"log", "rulebook"}, {"version", 1}, {"players", 4}, {"names", names}};
  lines.push_back(hand_header.dump());
  for (std::size_t i = 1; i < s.lines.size(); ++i) {
    json line = json::parse(s.lines[i]);
    if (line.contains("round") || line.contains("policy")) continue;  // optional lines left out
    if (line.contains("shuffle")) {
      // Only the cards dealt from the zone before it is shuffled again, from the top down:
      // what a player at the table sees. The rest are never seen.
      std::size_t dealt = 0;
      for (std::size_t j = i + 1; j < s.lines.size(); ++j) {
        const json later = json::parse(s.lines[j]);
        if (later.contains("shuffle") && later["shuffle"] == line["shuffle"]) break;
        if (later.contains("deal") && later["deal"]["from"] == line["shuffle"]) dealt += later["deal"]["cards"].size();
      }
      const json cards = line["cards"];
      json top = json::array();
      for (std::size_t k = 0; k < dealt; ++k) top.push_back(cards[cards.size() - 1 - k]);
      line.erase("cards");
      line["top"] = top;
    }
    if (line.contains("deal")) {
      std::string to = line["deal"]["to"];
      for (std::size_t p = 0; p < names.size(); ++p) {
        const std::string number = fmt::format("({})", p);
        if (to.find(number) != std::string::npos) to.replace(to.find(number), number.size(), "(" + names[p] + ")");
      }
      line["deal"]["to"] = to;
    }
    if (line.contains("move")) {
      line["move"]["player"] = names[line["move"]["player"].get<std::size_t>()];
      line["move"].erase("rule");
      if (line["move"]["choice"].is_number_integer()) line["move"]["choice"] = names[line["move"]["choice"].get<std::size_t>()];
    }
    lines.push_back(line.dump(1));  // spaces and line breaks inside: still one line each
    std::replace(lines.back().begin(), lines.back().end(), '\n', ' ');
  }
  const Replayed r = replay_text(*s.rules, join_lines(lines));
  INFO(join_lines(lines));
  INFO(r.rendered);
  REQUIRE(r.result.outcome == ri::ReplayOutcome::kOk);
  CHECK(r.result.ended);
  CHECK(r.result.seat_names == names);
  // The same game, except for the order of cards nobody saw.
  CHECK(r.result.final_state->winners == s.game.final_state.winners);
  CHECK(r.result.final_state->moves == s.game.final_state.moves);
  CHECK(s.rules->machine->scores(*r.result.final_state) == s.rules->machine->scores(s.game.final_state));

  // The top card left out of the first shuffle: it lies below the listed ones, and the first
  // deal line, which dealt it, catches the difference.
  const auto first_shuffle = static_cast<std::size_t>(std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
                                                        return l.find("\"shuffle\"") != std::string::npos;
                                                      }) - lines.begin());
  json shuffle = json::parse(lines[first_shuffle]);
  REQUIRE(shuffle["top"].size() > 1);
  shuffle["top"].erase(0);
  lines[first_shuffle] = shuffle.dump();
  const Replayed cut = replay_text(*s.rules, join_lines(lines));
  REQUIRE(cut.result.outcome == ri::ReplayOutcome::kBadLog);
  CHECK_THAT(cut.error()->message, Catch::Contains("do not give this deal"));
}

TEST_CASE("replay: a log stopped from outside (a simulation's move cap) replays up to the stop", "[replay]") {
  Sample s = sample();
  std::vector<std::string> lines(s.lines.begin(), s.lines.begin() + static_cast<std::ptrdiff_t>(first_line(s.lines, "move") + 5));
  lines.push_back(R"({"stopped":{"max_moves":5,"moves":5,"reason":"move cap","rounds":1}})");
  const Replayed r = replay_text(*s.rules, join_lines(lines));
  INFO(r.rendered);
  REQUIRE(r.result.outcome == ri::ReplayOutcome::kOk);
  CHECK_FALSE(r.result.ended);
  CHECK(r.result.stopped == std::optional<std::string>("move cap"));
  lines.push_back(lines[first_line(lines, "move")]);
  require_bad(s, lines, lines.size(), fmt::format("after the log says the game was stopped (line {})", lines.size() - 1));
}

TEST_CASE("logs: every line is compact JSON with sorted keys, as docs/log-format.md says", "[replay]") {
  for (const auto& [ruleset, players] : {std::pair<std::string, std::int64_t>{"rulesets/clusterfk.rules", 6},
                                         std::pair<std::string, std::int64_t>{"rulesets/molestation-game.rules", 2}}) {
    const auto rules = load(ruleset);
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      ri::GameConfig config;
      config.players = players;
      config.seed = seed;
      config.options = ruleset == "rulesets/clusterfk.rules" ? std::map<std::string, std::string>{{"ogling", "true"}, {"chlamydia", "true"}}
                                                              : std::map<std::string, std::string>{};
      const RecordedGame game = record_game(*rules->machine, config);
      for (const std::string& line : lines_of(game.log)) REQUIRE(json::parse(line).dump() == line);
    }
  }
}

TEST_CASE("replay bad log: a deal to the wrong hand, and a round with the wrong number", "[replay]") {
  Sample s = sample();
  auto lines = s.lines;
  const std::size_t i = first_line(lines, "deal");
  json deal = json::parse(lines[i]);
  REQUIRE(deal["deal"]["to"] == "hand(0)");
  deal["deal"]["to"] = "discard";  // the rules never deal there
  lines[i] = deal.dump();
  require_bad(s, lines, i + 1, "matches no deal the rules make");
  lines = s.lines;
  const std::size_t r = first_line(lines, "round");
  lines[r] = R"({"round":5})";
  require_bad(s, lines, r + 1, "round 1 starts here, not round 5");
}

TEST_CASE("replay bad log: a misspelt rule label gets a suggestion", "[replay]") {
  Sample s = sample();
  auto lines = s.lines;
  const std::size_t i = first_line(lines, "move");
  json move = json::parse(lines[i]);
  REQUIRE(move["move"]["rule"] == "pass_or_slam");
  move["move"]["rule"] = "pass_or_slap";
  lines[i] = move.dump();
  require_bad(s, lines, i + 1, "no rule labelled 'pass_or_slap' in these rules (did you mean 'pass_or_slam'?)");
}

}  // namespace interpreter_replay_test
