// The recorder's run: the rules from the start over the answers so far, up to the next
// question. Shuffles take their order from the cards the table has named (pins); the cards
// nobody has seen yet fill the other places in the order they had before the shuffle, the
// order a `top` shuffle line gives them (docs/log-format.md). When a card nobody has named
// becomes visible to anyone (face up, or in a zone its owner or everyone sees), the run stops
// and asks which card it really is. recorder_answers.cpp takes the answers.
#include "rulebook/logs/recorder.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "log_names.hpp"
#include "recorder_run.hpp"
#include "rulebook/logs/log.hpp"

namespace rulebook::interpreter::detail {

RecordSink::RecordSink(const Machine& machine, const std::vector<Recorder::Entry>& entries, LogWriter& writer,
                       const LogNames& names)
    : machine_(machine), entries_(entries), noted_(entries.size(), false), writer_(writer), names_(names) {
  for (std::size_t i = 0; i < entries.size(); ++i) {
    for (const Recorder::Pin& p : entries[i].pins) {
      pins_[p.shuffle].emplace_back(p.position, p.card);
      pinned_by_.emplace(std::make_pair(p.shuffle, p.card), i);
    }
  }
  const Ir& ir = machine.ir();
  zone_sees_.assign(static_cast<std::size_t>(ir.zone_instances), false);
  for (const ZoneInfo& z : ir.zones) {
    // A hidden zone shows nobody its face-down cards; an owner's zone shows them to its owner.
    const bool seen = z.visibility == ir::Visibility::kPublic ||
                      (z.visibility == ir::Visibility::kOwner && z.per_player);
    const std::int64_t width = z.per_player ? ir.seats : 1;
    for (std::int64_t i = 0; i < width; ++i) {
      const auto instance = static_cast<std::size_t>(z.first_instance + i);
      if (instance < zone_sees_.size()) zone_sees_[instance] = seen;
    }
  }
}

bool RecordSink::shuffle_result(const State& state, std::int32_t zone, std::vector<CardId>& cards) {
  const std::size_t k = shuffles_.size();
  if (group_.empty()) {
    group_.assign(state.cards->size(), -1);
    position_.assign(state.cards->size(), 0);
    pinned_.assign(state.cards->size(), false);
    watched_.assign(state.cards->size(), false);
  }
  std::vector<CardId> order(cards.size(), -1);
  std::vector<bool> placed(state.cards->size(), false);
  for (const auto& [position, card] : pins_[k]) {
    // A pin always names a card of this shuffle at a place in it: answers are checked so.
    if (position < order.size() && std::find(cards.begin(), cards.end(), card) != cards.end()) {
      order[position] = card;
      placed[static_cast<std::size_t>(card)] = true;
    }
  }
  std::size_t next = 0;
  for (const CardId c : cards) {
    if (placed[static_cast<std::size_t>(c)]) continue;
    while (order[next] != -1) ++next;
    order[next] = c;
  }
  for (std::size_t p = 0; p < order.size(); ++p) {
    const auto c = static_cast<std::size_t>(order[p]);
    group_[c] = static_cast<std::int64_t>(k);
    position_[c] = p;
    pinned_[c] = placed[c];
    watched_[c] = true;  // visible or not since this shuffle
  }
  shuffles_.push_back(zone);
  cards = std::move(order);
  return true;
}

void RecordSink::stepping(const State& state) {
  if (last_pc_ >= 0) {
    const OpCode code = machine_.ir().code[static_cast<std::size_t>(last_pc_)].code;
    // Only these instructions move or turn cards.
    if (code == OpCode::kMove || code == OpCode::kDeal || code == OpCode::kFlip || code == OpCode::kShuffle) check(state);
  }
  last_pc_ = state.pc;
}

bool RecordSink::visible(const State& state, CardId c) const {
  const auto card = static_cast<std::size_t>(c);
  if (state.card_face_up[card] != 0) return true;
  const std::int32_t zone = state.card_zone[card];
  return zone >= 0 && static_cast<std::size_t>(zone) < zone_sees_.size() && zone_sees_[static_cast<std::size_t>(zone)];
}

void RecordSink::check(const State& state) {
  // Cards of a shuffle seen now for the first time since: named ones are noted in the log,
  // the first unnamed one stops the run with a question.
  std::map<std::int32_t, std::vector<CardId>> named;  // by zone
  std::vector<CardId> unnamed;
  for (std::size_t c = 0; c < watched_.size(); ++c) {
    if (!watched_[c] || !visible(state, static_cast<CardId>(c))) continue;
    if (pinned_[c]) {
      watched_[c] = false;
      named[state.card_zone[c]].push_back(static_cast<CardId>(c));
    } else {
      unnamed.push_back(static_cast<CardId>(c));
    }
  }
  const auto top_first = [&](CardId a, CardId b) {
    return position_[static_cast<std::size_t>(a)] > position_[static_cast<std::size_t>(b)];
  };
  for (auto& [zone, cards] : named) {
    std::sort(cards.begin(), cards.end(), top_first);
    std::vector<std::string> shown;
    std::vector<std::size_t> answers;  // the entries that named these cards
    for (const CardId c : cards) {
      shown.push_back(machine_.card_name(state, c));
      const auto by = pinned_by_.find({static_cast<std::size_t>(group_[static_cast<std::size_t>(c)]), c});
      if (by != pinned_by_.end()) answers.push_back(by->second);
    }
    std::sort(answers.begin(), answers.end());
    for (const std::size_t a : answers) note(a);
    comments_.emplace_back(writer_.text().size(), fmt::format("// seen {}: {}\n", names_.zone_text(zone), fmt::join(shown, " ")));
  }
  if (unnamed.empty()) return;
  // One question is about one zone and one shuffle: those of the first card found.
  const auto first = static_cast<std::size_t>(unnamed.front());
  RevealStop stop{state, static_cast<std::size_t>(group_[first]), state.card_zone[first], {}, {}};
  for (const CardId c : unnamed) {
    const auto card = static_cast<std::size_t>(c);
    if (group_[card] == group_[first] && state.card_zone[card] == state.card_zone[first]) stop.placeholders.push_back(c);
  }
  std::sort(stop.placeholders.begin(), stop.placeholders.end(), top_first);
  for (std::size_t c = 0; c < group_.size(); ++c) {
    if (group_[c] == group_[first] && !pinned_[c]) stop.candidates.push_back(static_cast<CardId>(c));
  }
  throw stop;
}

void RecordSink::note(std::size_t entry) {
  if (entry >= noted_.size() || noted_[entry]) return;
  noted_[entry] = true;
  for (const std::string& line : entries_[entry].notes) comments_.emplace_back(writer_.text().size(), line + "\n");
}

std::string RecordSink::log_text() const {
  const std::string& text = writer_.text();
  std::string out;
  std::size_t from = 0;
  for (const auto& [offset, line] : comments_) {
    out.append(text, from, offset - from);
    out += line;
    from = offset;
  }
  out.append(text, from, std::string::npos);
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (noted_[i]) continue;
    for (const std::string& line : entries_[i].notes) out += line + "\n";
  }
  return out;
}

}  // namespace rulebook::interpreter::detail

namespace rulebook::interpreter {

void Recorder::rerun() {
  LogWriter writer(machine_, config_);
  const detail::LogNames names(machine_, seats_, names_);
  detail::RecordSink sink(machine_, entries_, writer, names);
  question_ = Question{};
  reveal_positions_.clear();
  reveal_candidates_.clear();
  legal_json_.clear();
  std::size_t next_move = 0;
  // How a move is kept between reruns: its choice as the log writes it, or for a decision with
  // alternatives its text (`draw`, `play 7H`) as a JSON string, which is also what is typed.
  const auto move_key = [&](std::size_t i) {
    const Decision& d = *state_.decision;
    if (d.mixed < 0) return choice_json(machine_, state_, d.options[i]);
    return nlohmann::json(machine_.move_text(state_, i)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  };
  try {
    state_ = machine_.start(config_, &sink);
    for (;;) {
      sink.check(state_);
      if (state_.finished) break;
      // The next recorded decision, if there is one.
      while (next_move < entries_.size() && entries_[next_move].move.empty()) ++next_move;
      const std::vector<Value>& options = state_.decision->options;
      if (next_move < entries_.size()) {
        const std::string& move = entries_[next_move++].move;
        std::size_t found = options.size();
        for (std::size_t i = 0; i < options.size() && found == options.size(); ++i) {
          if (move_key(i) == move) found = i;
        }
        const auto it = options.begin() + static_cast<std::ptrdiff_t>(found);
        if (it == options.end()) {
          // Only rules that look at the faces of cards nobody has seen get here (recording.md).
          throw std::runtime_error(fmt::format("the recorded choice {} is no longer legal: the rules depend on cards "
                                               "nobody has seen", move));
        }
        sink.note(next_move - 1);
        machine_.apply(state_, static_cast<std::size_t>(it - options.begin()), &sink);
        continue;
      }
      const Decision& d = *state_.decision;
      question_.kind = Question::Kind::kMove;
      question_.player = who(d.player);
      question_.rule = d.rule >= 0 ? machine_.ir().labels[static_cast<std::size_t>(d.rule)] : std::string();
      for (std::size_t i = 0; i < options.size(); ++i) {
        question_.options.push_back(d.mixed >= 0 ? machine_.move_text(state_, i) : names.notation(state_, options[i]));
        legal_json_.push_back(move_key(i));
      }
      break;
    }
  } catch (detail::RevealStop& stop) {
    state_ = std::move(stop.state);
    question_.kind = Question::Kind::kReveal;
    question_.zone = names.zone_text(stop.zone);
    question_.from = names.zone_text(sink.shuffle_zone(stop.shuffle));
    question_.count = stop.placeholders.size();
    reveal_shuffle_ = stop.shuffle;
    for (const CardId c : stop.placeholders) reveal_positions_.push_back(sink.position(c));
    reveal_candidates_ = stop.candidates;
    for (const CardId c : stop.candidates) question_.options.push_back(machine_.card_name(state_, c));
    std::sort(question_.options.begin(), question_.options.end());
  }
  question_.round = state_.rounds;
  card_group_ = sink.groups();
  if (state_.finished) question_.summary = summary();
  log_ = sink.log_text();
}

std::string Recorder::summary() const {
  if (state_.fault) {
    return fmt::format("the rules stopped with a rule fault: {} ({})", state_.fault->message, machine_.where(state_.fault->span));
  }
  std::vector<std::string> winners;
  for (const PlayerId w : state_.winners) winners.push_back(who(w));
  std::string out = fmt::format("the game is over after {} round{}: {}", state_.rounds, state_.rounds == 1 ? "" : "s",
                                winners.empty() ? std::string("no winner") : fmt::format("{} won", fmt::join(winners, ", ")));
  const auto scores = machine_.scores(state_);
  for (std::size_t i = 0; i < scores.size(); ++i) {
    std::vector<std::string> parts;
    for (std::size_t p = 0; p < scores[i].size(); ++p) parts.push_back(fmt::format("{} {}", who(static_cast<PlayerId>(p)), score_text(scores[i][p])));
    out += fmt::format("\n  {}: {}", machine_.ir().scores[i].name, fmt::join(parts, ", "));
  }
  return out;
}

}  // namespace rulebook::interpreter
