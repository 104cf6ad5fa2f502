// The Replayer's side of the EventSink contract (machine.hpp, docs/logs-library.md): each
// event the rules raise is checked against the log inside guarded(), and what stops the
// replay becomes the sink's verdict; raise_pending() turns it back into the Replayer's own
// control flow once the machine has returned. Also the check of a shuffle's result.
#include <algorithm>

#include <fmt/format.h>

#include "replayer.hpp"
#include "why_illegal.hpp"

namespace rulebook::interpreter::detail {

// ---- the machine's events: each check runs guarded, its failure is the verdict ---------

bool Replayer::shuffle_result(const State& state, std::int32_t zone, std::vector<CardId>& cards) {
  bool given = false;
  guarded([&] { given = check_shuffle(state, zone, cards); });
  return given;
}

void Replayer::dealt(const State& state, std::int32_t from, std::int32_t to, const std::vector<CardId>& cards) {
  guarded([&] { check_deal(state, from, to, cards); });
}

void Replayer::round_started(const State& state) {
  guarded([&] { check_round(state); });
}

void Replayer::chose(const State& state, PlayerId player, std::int32_t rule, const Value& choice, bool by_policy) {
  guarded([&] { check_policy(state, player, rule, choice, by_policy); });
}

bool Replayer::draw_result(const State& state, std::int32_t rule, const std::vector<Value>& options, std::size_t& index) {
  bool given = false;
  guarded([&] {
    index = check_draw(state, rule, options);
    given = true;
  });
  return given;
}

SinkVerdict Replayer::verdict() const {
  if (!pending_) return SinkVerdict::kContinue;
  const bool log_ran_out = std::holds_alternative<LogEnded>(*pending_) || std::holds_alternative<LogCut>(*pending_);
  return log_ran_out ? SinkVerdict::kStop : SinkVerdict::kError;
}

void Replayer::raise_pending() {
  if (!pending_) return;
  Pending p = std::move(*pending_);
  pending_.reset();
  std::visit([](auto& stop) { throw std::move(stop); }, p);
}

void Replayer::ended(const State& state) {
  if (!state.fault && state.rounds > 0) record_round_end(state, true);
}

bool Replayer::check_shuffle(const State& state, std::int32_t zone, std::vector<CardId>& cards) {
  const std::string where = machine_.where(ir_.instr_spans[static_cast<std::size_t>(state.pc)]);
  const LogEvent* event = reader_.peek();
  if (event == nullptr) throw LogEnded{fmt::format("the result of shuffling {} ({})", names_.zone_text(zone), where), state, "", "", {}};
  if (event->type == EventType::kCut) cut(*event, state);
  if (event->type != EventType::kShuffle) {
    bad_log(event->line, "", fmt::format("the rules shuffle {} here ({}), but the log has a {} line: a log gives the result of every shuffle",
                                    names_.zone_text(zone), where, event_name(event->type)));
  }
  const std::int32_t logged = names_.zone(event->line, event->value().at("shuffle"), "shuffle");
  if (logged != zone) {
    bad_log(event->line, "shuffle", fmt::format("the rules shuffle {} here ({}), not {}", names_.zone_text(zone), where, names_.zone_text(logged)));
  }
  const bool full = event->value().contains("cards");
  if (full == event->value().contains("top")) {
    // Both would be read one way and the other silently dropped: which did the writer mean?
    bad_log(event->line, full ? "top" : "",
            fmt::format("a shuffle line gives the result as \"cards\" (all of them, bottom to top) or \"top\" (from the top down){}",
                        full ? ", not both" : ""));
  }
  const char* key = full ? "cards" : "top";
  const std::vector<CardId> listed = names_.cards(state, event->line, event->value().at(key), key);
  for (const CardId c : listed) {
    if (state.card_zone[static_cast<std::size_t>(c)] != zone) {
      bad_log(event->line, key, fmt::format("{} is not in {} but in {}", machine_.card_name(state, c), names_.zone_text(zone),
                                       names_.zone_text(state.card_zone[static_cast<std::size_t>(c)])));
    }
  }
  if (full && listed.size() != cards.size()) {
    std::vector<CardId> missing;
    for (const CardId c : cards) {
      if (std::find(listed.begin(), listed.end(), c) == listed.end()) missing.push_back(c);
    }
    bad_log(event->line, key, fmt::format("{} holds {} cards; the shuffle leaves out {}", names_.zone_text(zone), cards.size(),
                                     names_.cards_text(state, missing)));
  }
  if (full) {
    cards = listed;
  } else {
    // The cards not listed stay below, in the order they had; the listed ones go on top.
    std::vector<CardId> order;
    for (const CardId c : cards) {
      if (std::find(listed.begin(), listed.end(), c) == listed.end()) order.push_back(c);
    }
    order.insert(order.end(), listed.rbegin(), listed.rend());
    cards = std::move(order);
  }
  reader_.advance();
  return true;
}

// A random choice takes its result from the next line, which must be a draw line of the same
// rule whose choice is one of the legal options; an illegal one is explained as an illegal move.
std::size_t Replayer::check_draw(const State& state, std::int32_t rule, const std::vector<Value>& options) {
  const std::string where = machine_.where(ir_.instr_spans[static_cast<std::size_t>(state.pc)]);
  const LogEvent* event = reader_.peek();
  if (event == nullptr) throw LogEnded{fmt::format("the result of the random choice in {} ({})", rule_text(rule), where), state, "", "", {}};
  if (event->type == EventType::kCut) cut(*event, state);
  if (event->type != EventType::kDraw) {
    bad_log(event->line, "", fmt::format("the rules draw at random in {} here ({}), but the log has a {} line: a log gives the "
                                         "result of every random choice",
                                         rule_text(rule), where, event_name(event->type)));
  }
  LogValue body = event->value().at("draw");
  if (!body.is_object()) bad_log(event->line, "draw", "\"draw\" is an object: the choice and its rule");
  const std::int32_t logged_rule = rule_of(event->line, body);
  if (logged_rule != -2 && logged_rule != rule) {
    stop(ReplayOutcome::kIllegal, grammar::Code::kWrongRule, event->line, "rule",
         fmt::format("step {}: the rules draw at random in {} here, not in {}", result_.steps + 1, rule_text(rule),
                     rule_text(logged_rule)),
         {rule_note(state.pc, "the random choice is here")});
  }
  const Value drawn = choice_of(state, event->line, field(*event, body, "choice", "what was drawn"), options.front());
  const auto it = std::find_if(options.begin(), options.end(), [&](const Value& o) { return equal(o, drawn); });
  if (it == options.end()) {
    std::vector<grammar::DiagnosticNote> notes{rule_note(state.pc, fmt::format("{} draws only among these options", rule_text(rule)))};
    // Why, as for a player's move: the explainer reads the choice from a pending decision.
    State scratch = state;
    scratch.decision = Decision{-1, rule, state.pc, options, false, -1, {}};
    std::vector<grammar::DiagnosticNote> why = why_illegal(machine_, sources_, names_, scratch, drawn);
    if (why.empty() && drawn.kind == Kind::kCard) {
      why.push_back(grammar::DiagnosticNote{{}, fmt::format("{} is in {}", machine_.card_name(state, static_cast<CardId>(drawn.scalar)),
                                                            names_.zone_text(state.card_zone[static_cast<std::size_t>(drawn.scalar)]))});
    }
    for (grammar::DiagnosticNote& n : why) notes.push_back(std::move(n));
    std::vector<std::string> texts;
    for (std::size_t i = 0; i < options.size() && i < kMaxListedMoves; ++i) texts.push_back(names_.notation(state, options[i]));
    const std::string more = options.size() > kMaxListedMoves ? fmt::format(" and {} more", options.size() - kMaxListedMoves) : "";
    notes.push_back(grammar::DiagnosticNote{{}, fmt::format("legal draws here: {}{}", fmt::join(texts, ", "), more)});
    stop(ReplayOutcome::kIllegal, grammar::Code::kIllegalChoice, event->line, "choice",
         fmt::format("step {}: the random choice in {} may not draw {}", result_.steps + 1, rule_text(rule),
                     names_.notation(state, drawn)),
         std::move(notes));
  }
  reader_.advance();
  return static_cast<std::size_t>(it - options.begin());
}

}  // namespace rulebook::interpreter::detail
