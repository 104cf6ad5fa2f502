// The Narrator (narrator.hpp): the game's events told per viewer. A card's name is told
// when the viewer could see it where it was or where it went (a note passed face down is
// "a card" to the others, and the passer's own card to the passer); a choice of cards by the
// same rule; other choices (players, options, numbers) are seen by everyone at the table,
// except those taken inside `simultaneous`, which are told when the block is over.
#include "rulebook/logs/narrator.hpp"

#include <fmt/format.h>

#include "rulebook/interpreter/evaluator.hpp"
#include "rulebook/logs/table_view.hpp"

namespace rulebook::interpreter {

namespace {

// `note3 note9`, `a card`, `4 cards`, `note3 and 2 other cards`.
std::string cards_words(const std::vector<std::string>& seen, std::size_t hidden) {
  const std::string names = fmt::format("{}", fmt::join(seen, " "));
  if (hidden == 0) return names;
  if (seen.empty()) return hidden == 1 ? "a card" : fmt::format("{} cards", hidden);
  return fmt::format("{} and {} other card{}", names, hidden, hidden == 1 ? "" : "s");
}

}  // namespace

Narrator::Narrator(const Machine& machine, std::vector<PlayerId> viewers, std::vector<std::string> names)
    : machine_(machine), names_(std::move(names)) {
  for (const PlayerId v : viewers) stories_.push_back(Story{v, {}, {}, {}});
}

std::string Narrator::who(PlayerId p) const {
  if (p >= 0 && static_cast<std::size_t>(p) < names_.size()) return names_[static_cast<std::size_t>(p)];
  return fmt::format("player {}", p);
}

std::string Narrator::rule_suffix(std::int32_t rule) const {
  return rule >= 0 ? fmt::format(" ({})", machine_.ir().labels[static_cast<std::size_t>(rule)]) : std::string();
}

std::string Narrator::choice_text(const State& state, const Value& choice, PlayerId viewer) const {
  const Ir& ir = machine_.ir();
  switch (choice.kind) {
    case Kind::kCard:
      if (choice.scalar < 0) return "none";
      return sees_card(ir, state, static_cast<CardId>(choice.scalar), viewer) ? machine_.card_name(state, static_cast<CardId>(choice.scalar))
                                                                              : "a card";
    case Kind::kPlayer: return choice.scalar < 0 ? "none" : who(static_cast<PlayerId>(choice.scalar));
    case Kind::kZone: return zone_display_name(ir, static_cast<std::int32_t>(choice.scalar), names_);
    case Kind::kSet:
    case Kind::kPlayerSet: {
      std::vector<std::string> parts;
      std::size_t hidden = 0;
      for (const std::int64_t x : choice.items) {
        if (choice.element == Kind::kPlayerSet) {
          parts.push_back(choice_text(state, players_in_mask(x), viewer));
          continue;
        }
        if (choice.element == Kind::kCard && !sees_card(ir, state, static_cast<CardId>(x), viewer)) {
          ++hidden;
          continue;
        }
        parts.push_back(choice_text(state, Value{choice.element, Kind::kNone, choice.enum_id, x, {}}, viewer));
      }
      if (hidden > 0) parts.push_back(hidden == 1 ? "a card" : fmt::format("{} cards", hidden));
      return fmt::format("{{{}}}", fmt::join(parts, ", "));
    }
    default: return machine_.value_text(state, choice);
  }
}

void Narrator::add(Story& story, std::string line) {
  story.lines.push_back(std::move(line));
  story.head.clear();
}

void Narrator::join(Story& story, const std::string& head, const std::string& part) {
  if (!story.lines.empty() && story.head == head) {
    story.lines.back() += ", " + part;
    return;
  }
  story.lines.push_back(head + " " + part);
  story.head = head;
}

void Narrator::close(const State& /*state*/, Story& story) {
  Group& g = story.group;
  if (!g.open) return;
  const Ir& ir = machine_.ir();
  std::string line = fmt::format("{} {} from {} to {}", cards_words(g.seen, g.hidden), g.deal ? "dealt" : "moved",
                                 zone_display_name(ir, g.from, names_), zone_display_name(ir, g.to, names_));
  line += rule_suffix(ir.code[static_cast<std::size_t>(g.pc)].rule);
  add(story, std::move(line));
  g = Group{};
}

void Narrator::tell(const State& state, const std::string& line) {
  for (Story& story : stories_) {
    close(state, story);
    add(story, line);
  }
}

void Narrator::reveal(const State& state) {
  if (state.holding || secrets_.empty()) return;
  for (Story& story : stories_) {
    close(state, story);
    for (const Secret& s : secrets_) {
      if (s.player == story.viewer) continue;
      join(story, who(s.player) + " had chosen", choice_text(state, s.choice, story.viewer) + rule_suffix(s.rule));
    }
  }
  secrets_.clear();
}

std::vector<std::string> Narrator::take(const State& state, PlayerId viewer) {
  reveal(state);
  for (Story& story : stories_) {
    if (story.viewer != viewer) continue;
    close(state, story);
    std::vector<std::string> out = std::move(story.lines);
    story.lines.clear();
    return out;
  }
  return {};
}

void Narrator::card_went(const State& state, bool deal, CardId card, std::int32_t from, bool was_face_up) {
  reveal(state);
  const Ir& ir = machine_.ir();
  const std::int32_t to = state.card_zone[static_cast<std::size_t>(card)];
  for (Story& story : stories_) {
    // Seen where it was (face up, or in a zone the viewer sees) or where it is now.
    const bool seen = was_face_up || sees_zone(ir, from, story.viewer) || sees_card(ir, state, card, story.viewer);
    Group& g = story.group;
    if (!g.open || g.deal != deal || g.pc != state.pc || g.from != from || g.to != to) {
      close(state, story);
      g.open = true;
      g.deal = deal;
      g.pc = state.pc;
      g.from = from;
      g.to = to;
    }
    if (seen) {
      g.seen.push_back(machine_.card_name(state, card));
    } else {
      ++g.hidden;
    }
  }
}

void Narrator::dealt(const State& state, std::int32_t from, std::int32_t /*to*/, const std::vector<CardId>& cards) {
  // The facing a dealt card had is not told; a face-up card in a hidden pile is rare, and a
  // deal that turns its cards face up shows them anyway.
  for (const CardId c : cards) card_went(state, true, c, from, false);
}

void Narrator::moved(const State& state, CardId card, std::int32_t from, bool was_face_up) {
  card_went(state, false, card, from, was_face_up);
}

void Narrator::flipped(const State& state, CardId card, bool was_face_up) {
  const bool up = state.card_face_up[static_cast<std::size_t>(card)] != 0;
  if (up == was_face_up) return;
  reveal(state);
  const Ir& ir = machine_.ir();
  // A card turned over was face up before or after: everyone sees which card it is.
  tell(state, fmt::format("{} turned face {} in {}{}", machine_.card_name(state, card), up ? "up" : "down",
                          zone_display_name(ir, state.card_zone[static_cast<std::size_t>(card)], names_),
                          rule_suffix(ir.code[static_cast<std::size_t>(state.pc)].rule)));
}

void Narrator::shuffled(const State& state, std::int32_t zone_instance) {
  reveal(state);
  const Ir& ir = machine_.ir();
  tell(state, fmt::format("{} shuffled{}", zone_display_name(ir, zone_instance, names_),
                          rule_suffix(ir.code[static_cast<std::size_t>(state.pc)].rule)));
}

void Narrator::chose(const State& state, PlayerId player, std::int32_t rule, const Value& choice, bool by_policy) {
  if (state.holding) {
    // Inside `simultaneous`: the others learn that the player chose, not what, until the end.
    secrets_.push_back(Secret{player, rule, choice});
    for (Story& story : stories_) {
      if (story.viewer == player) continue;
      close(state, story);
      join(story, who(player) + " chose in secret:",
           rule >= 0 ? machine_.ir().labels[static_cast<std::size_t>(rule)] : std::string("a choice"));
    }
    return;
  }
  reveal(state);
  for (Story& story : stories_) {
    if (story.viewer == player) continue;  // a player knows its own choices
    close(state, story);
    // A move of a decision with alternatives says its alternative: `draw`, `play 7H`.
    std::string text = choice_text(state, choice, story.viewer);
    if (!by_policy && state.last_alternative.mixed >= 0) {
      const ir::AlternativeInfo& alt = machine_.ir()
                                           .mixed_choices[static_cast<std::size_t>(state.last_alternative.mixed)]
                                           .alternatives[static_cast<std::size_t>(state.last_alternative.alternative)];
      text = alt.slot < 0 ? alt.name : alt.name + " " + text;
    }
    join(story, who(player) + (by_policy ? " (automated) chose" : " chose"), text + rule_suffix(rule));
  }
}

// A random choice: everyone learns what was drawn (as far as the viewer may see a card).
void Narrator::drew(const State& state, std::int32_t rule, const std::vector<Value>& options, std::size_t index) {
  reveal(state);
  for (Story& story : stories_) {
    close(state, story);
    join(story, "drawn at random:", choice_text(state, options[index], story.viewer) + rule_suffix(rule));
  }
}

void Narrator::round_ended(const State& state) {
  reveal(state);
  const std::string scores = scores_text(machine_.ir(), machine_.scores(state), names_);
  tell(state, fmt::format("round {} ends{}{}", state.rounds, scores.empty() ? "" : "; ", scores));
}

void Narrator::round_started(const State& state) {
  reveal(state);
  tell(state, fmt::format("round {} starts", state.rounds));
}

void Narrator::ended(const State& state) {
  reveal(state);
  tell(state, state.fault ? std::string("the rules stop with a rule fault") : fmt::format("the game ends after round {}", state.rounds));
}

}  // namespace rulebook::interpreter
