// The table view (table_view.hpp): which cards a viewer sees follows the language's
// visibility rules only (docs/language.md, zone): a face-up card is seen by everyone, a
// public zone's cards by everyone, an owner zone's cards by its owner. Counts are never
// hidden: a player at a table sees how many cards each pile and hand holds.
#include "rulebook/logs/table_view.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace rulebook::interpreter {

namespace {

using ir::Visibility;

// The cards of a zone as text: names, `##` for hidden ones, runs of 3+ hidden as `##xN`.
std::string cards_text(const Machine& machine, const State& state, const TableZone& zone) {
  const ZoneOwner where = zone_owner(machine.ir(), zone.instance);
  const bool hides = machine.ir().zones[static_cast<std::size_t>(where.zone)].visibility != Visibility::kPublic;
  std::vector<std::string> parts;
  std::size_t hidden_run = 0;
  const auto close_run = [&] {
    if (hidden_run >= 3) {
      parts.push_back(fmt::format("##x{}", hidden_run));
    } else {
      for (std::size_t i = 0; i < hidden_run; ++i) parts.emplace_back("##");
    }
    hidden_run = 0;
  };
  for (std::size_t i = 0; i < zone.cards.size(); ++i) {
    if (!zone.cards[i]) {
      ++hidden_run;
      continue;
    }
    close_run();
    // In a zone that hides its cards, facing is what lets everyone see one: say so.
    parts.push_back(machine.card_name(state, *zone.cards[i]) + (hides && zone.face_up[i] ? "^" : ""));
  }
  close_run();
  return fmt::format("[{}] {}", zone.cards.size(), fmt::join(parts, " "));
}

std::string who(const std::vector<std::string>& names, PlayerId p) {
  if (p >= 0 && static_cast<std::size_t>(p) < names.size()) return names[static_cast<std::size_t>(p)];
  return fmt::format("player {}", p);
}

}  // namespace

ZoneOwner zone_owner(const Ir& ir, std::int32_t instance) {
  // Zones are few and their instances ascend: the last zone that starts at or before it.
  ZoneOwner out;
  for (std::size_t z = 0; z < ir.zones.size(); ++z) {
    if (ir.zones[z].first_instance > instance) break;
    out.zone = static_cast<std::int32_t>(z);
  }
  const ZoneInfo& info = ir.zones[static_cast<std::size_t>(out.zone)];
  out.owner = info.per_player ? instance - info.first_instance : -1;
  return out;
}

bool sees_zone(const Ir& ir, std::int32_t instance, PlayerId viewer) {
  const ZoneOwner where = zone_owner(ir, instance);
  switch (ir.zones[static_cast<std::size_t>(where.zone)].visibility) {
    case Visibility::kPublic: return true;
    case Visibility::kOwner: return viewer != kTableViewer && where.owner == viewer;
    case Visibility::kHidden: return false;
  }
  return false;
}

bool sees_card(const Ir& ir, const State& state, CardId card, PlayerId viewer) {
  if (state.card_face_up[static_cast<std::size_t>(card)] != 0) return true;
  return sees_zone(ir, state.card_zone[static_cast<std::size_t>(card)], viewer);
}

std::string zone_display_name(const Ir& ir, std::int32_t instance, const std::vector<std::string>& names) {
  const ZoneOwner where = zone_owner(ir, instance);
  const std::string& name = ir.zones[static_cast<std::size_t>(where.zone)].name;
  return where.owner < 0 ? name : fmt::format("{}({})", name, who(names, where.owner));
}

TableView table_view(const Machine& machine, const State& state, PlayerId viewer) {
  const Ir& ir = machine.ir();
  TableView v;
  v.viewer = viewer;
  v.round = state.rounds;
  v.moves = state.moves;
  v.seat_of = state.seat_of;
  v.finished = state.finished;
  v.fault = state.fault.has_value();
  v.winners = state.winners;
  if (state.decision) {
    v.to_move = state.decision->player;
    v.rule = state.decision->rule;
    v.secret = state.decision->secret;
  }
  for (const ZoneInfo& z : ir.zones) {
    const std::int32_t width = z.per_player ? state.num_seats : 1;
    for (std::int32_t i = 0; i < width; ++i) {
      const std::int32_t instance = z.first_instance + i;
      const auto& cards = state.zones[static_cast<std::size_t>(instance)];
      if (cards.empty()) continue;
      const bool zone_seen = sees_zone(ir, instance, viewer);
      TableZone tz;
      tz.instance = instance;
      for (const CardId c : cards) {
        const bool up = state.card_face_up[static_cast<std::size_t>(c)] != 0;
        const bool seen = up || zone_seen;
        tz.cards.push_back(seen ? std::optional<CardId>(c) : std::nullopt);
        tz.face_up.push_back(seen && up);
      }
      v.zones.push_back(std::move(tz));
    }
  }
  v.scores = machine.scores(state);
  return v;
}

std::string scores_text(const Ir& ir, const std::vector<std::vector<ScoreValue>>& scores,
                        const std::vector<std::string>& names) {
  std::vector<std::string> clauses;
  for (std::size_t s = 0; s < scores.size() && s < ir.scores.size(); ++s) {
    std::vector<std::string> parts;
    for (std::size_t p = 0; p < scores[s].size(); ++p) {
      parts.push_back(fmt::format("{} {}", who(names, static_cast<PlayerId>(p)), score_text(scores[s][p])));
    }
    clauses.push_back(fmt::format("{}: {}", ir.scores[s].name, fmt::join(parts, ", ")));
  }
  return fmt::format("{}", fmt::join(clauses, "; "));
}

std::string render_table_view(const Machine& machine, const State& state, const TableView& view,
                              const std::vector<std::string>& names, const std::string& indent) {
  const Ir& ir = machine.ir();
  std::string out = indent + (view.round == 0 ? std::string("setup") : fmt::format("round {}", view.round));
  out += fmt::format(", {} move{}", view.moves, view.moves == 1 ? "" : "s");
  if (view.to_move) {
    out += fmt::format("; {} to choose", who(names, *view.to_move));
    if (view.rule >= 0) out += ": " + ir.labels[static_cast<std::size_t>(view.rule)];
    if (view.secret) out += " (in secret)";
  } else if (view.fault) {
    out += "; the rules stopped with a rule fault";
  } else if (view.finished) {
    std::vector<std::string> winners;
    for (const PlayerId w : view.winners) winners.push_back(who(names, w));
    out += winners.empty() ? std::string("; game over, no winner") : fmt::format("; game over, won by {}", fmt::join(winners, ", "));
  }
  out += "\n";
  // Seats only when they changed: a player keeps its identity (and its zones) when it moves.
  bool moved_seats = false;
  for (std::size_t p = 0; p < view.seat_of.size(); ++p) moved_seats = moved_seats || view.seat_of[p] != static_cast<std::int32_t>(p);
  if (moved_seats) {
    std::vector<std::string> seats;
    for (std::size_t p = 0; p < view.seat_of.size(); ++p) seats.push_back(fmt::format("{} in seat {}", who(names, static_cast<PlayerId>(p)), view.seat_of[p]));
    out += fmt::format("{}  seats: {}\n", indent, fmt::join(seats, ", "));
  }
  std::vector<std::string> zone_names;
  std::size_t width = 12;
  for (const TableZone& z : view.zones) {
    zone_names.push_back(zone_display_name(ir, z.instance, names));
    width = std::max(width, zone_names.back().size());
  }
  for (std::size_t i = 0; i < view.zones.size(); ++i) {
    out += fmt::format("{}  {:<{}} {}\n", indent, zone_names[i], width, cards_text(machine, state, view.zones[i]));
  }
  const std::string scores = scores_text(ir, view.scores, names);
  if (!scores.empty()) out += fmt::format("{}  {}\n", indent, scores);
  return out;
}

std::string table_view_legend() {
  return "(## a card you cannot see; ^ face up in a zone that hides its cards, so everyone sees it; [N] the count; piles bottom to top)";
}

}  // namespace rulebook::interpreter
