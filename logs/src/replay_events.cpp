// The Replayer's side of the EventSink contract (machine.hpp, docs/logs-library.md): each
// event the rules raise is checked against the log inside guarded(), and what stops the
// replay becomes the sink's verdict; raise_pending() turns it back into the Replayer's own
// control flow once the machine has returned. Also the check of a shuffle's result.
#include <algorithm>

#include <fmt/format.h>

#include "replayer.hpp"

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

}  // namespace rulebook::interpreter::detail
