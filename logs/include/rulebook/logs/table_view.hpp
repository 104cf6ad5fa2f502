// The table view: a game as one player at the table sees it, or as the table does (public
// information only). It is built from what the ruleset declares, never from a game's names:
// the zones and their visibility, each card's facing, the declared scores, whose decision it
// is. `replay --show-state` prints it after steps or rounds, `play` before each decision of a
// human; the Narrator (narrator.hpp) tells the events between two views by the same rules.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rulebook/interpreter/machine.hpp"

namespace rulebook::interpreter {

// The viewer that is nobody in particular: it sees face-up cards and public zones only.
inline constexpr PlayerId kTableViewer = -1;

// Whether `viewer` (a player, or kTableViewer) may see the cards of zone instance `instance`
// whatever their facing: public zones, and an `owner` zone for its owner.
[[nodiscard]] bool sees_zone(const Ir& ir, std::int32_t instance, PlayerId viewer);
// Whether `viewer` may see the face of `card` where it lies now: face up, or in a zone it sees.
[[nodiscard]] bool sees_card(const Ir& ir, const State& state, CardId card, PlayerId viewer);

// The owner of a zone instance of a per-player zone, or -1; and the declared zone.
struct ZoneOwner {
  std::int32_t zone = 0;
  PlayerId owner = -1;
};
[[nodiscard]] ZoneOwner zone_owner(const Ir& ir, std::int32_t instance);

// A zone instance's name with its owner by name: `hand(Ann)`, `deck`.
[[nodiscard]] std::string zone_display_name(const Ir& ir, std::int32_t instance, const std::vector<std::string>& names);

struct TableZone {
  std::int32_t instance = 0;
  std::vector<std::optional<CardId>> cards;  // bottom to top; nullopt: hidden from the viewer
  std::vector<bool> face_up;                 // of the cards the viewer sees (false when hidden)
};

struct TableView {
  PlayerId viewer = kTableViewer;
  std::int64_t round = 0;
  std::int64_t moves = 0;
  std::vector<TableZone> zones;                       // the zone instances that hold cards
  std::vector<std::vector<ScoreValue>> scores;      // by declared score, then by player
  std::vector<std::int32_t> seat_of;                  // by player
  std::optional<PlayerId> to_move;                    // who the rules wait for
  std::int32_t rule = -1;                             // the deciding rule's label, or -1
  bool secret = false;                                // the decision is inside `simultaneous`
  bool finished = false;
  bool fault = false;
  std::vector<PlayerId> winners;
};

// What `viewer` sees of `state`.
[[nodiscard]] TableView table_view(const Machine& machine, const State& state, PlayerId viewer);

// The view as indented text lines, players by `names` (by player identity):
//   round 1, 3 moves; Bob to choose: pass_or_slam
//     deck              [16] ##x16
//     hand(Ann)         [4] note17 note28 note9 note12
//   score_cards: Ann 0, Bob 0, Cy 0, Dee 0
// `##` is a card the viewer cannot see (runs of three or more are `##xN`), `^` marks a card
// that lies face up in a zone that hides its cards (so everyone sees it). Piles are bottom to
// top. Every line starts with `indent` and ends with a newline.
[[nodiscard]] std::string render_table_view(const Machine& machine, const State& state, const TableView& view,
                                            const std::vector<std::string>& names, const std::string& indent);

// The legend of render_table_view's marks, one line without a newline.
[[nodiscard]] std::string table_view_legend();

// The scores, one clause per declared score: `score_cards: Ann 0, Bob 1`; "" if none.
[[nodiscard]] std::string scores_text(const Ir& ir, const std::vector<std::vector<ScoreValue>>& scores,
                                      const std::vector<std::string>& names);

}  // namespace rulebook::interpreter
