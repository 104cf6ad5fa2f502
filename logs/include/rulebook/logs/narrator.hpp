// The Narrator: an event sink that tells each of some players, in short lines, what happened
// in the game as that player saw it: the decisions of the others with their rule labels, the
// cards moved and dealt between zones, shuffles, flips, rounds. Which card faces a player
// learns follows the table view's rules (table_view.hpp); a decision taken in secret (inside
// `simultaneous`) is told as taken, and its choice once the block is over. `play` prints a
// human's lines before each of its decisions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rulebook/interpreter/machine.hpp"

namespace rulebook::interpreter {

class Narrator : public EventSink {
 public:
  // `names`: how players are called, by identity (`player 2`, `Ann`).
  Narrator(const Machine& machine, std::vector<PlayerId> viewers, std::vector<std::string> names);

  // The lines for `viewer` since the last take (everything since the start, the first time),
  // oldest first; they are forgotten. `state` is the game now.
  [[nodiscard]] std::vector<std::string> take(const State& state, PlayerId viewer);

  void shuffled(const State& state, std::int32_t zone_instance) override;
  void dealt(const State& state, std::int32_t from, std::int32_t to, const std::vector<CardId>& cards) override;
  void moved(const State& state, CardId card, std::int32_t from, bool was_face_up) override;
  void flipped(const State& state, CardId card, bool was_face_up) override;
  void chose(const State& state, PlayerId player, std::int32_t rule, const Value& choice, bool by_policy) override;
  void drew(const State& state, std::int32_t rule, const std::vector<Value>& options, std::size_t index) override;
  void round_ended(const State& state) override;
  void round_started(const State& state) override;
  void ended(const State& state) override;

 private:
  // Cards that went the same way in one statement (a deal, `move hand(p) to discard`) are one
  // line: the group stays open while the events match.
  struct Group {
    bool open = false;
    bool deal = false;
    std::int32_t pc = -1;
    std::int32_t from = -1, to = -1;
    std::vector<std::string> seen;  // card names the viewer saw
    std::size_t hidden = 0;         // and how many it did not
  };
  struct Story {
    PlayerId viewer = -1;
    std::vector<std::string> lines;
    Group group;
    // The head of the last line when more may join it: the choices one player makes in a
    // row are one line ("player 1 chose pass (pass_or_slam), player 2 (pass_to)").
    std::string head;
  };
  // A decision taken in secret, told once the block is over.
  struct Secret {
    PlayerId player = -1;
    std::int32_t rule = -1;
    Value choice;
  };

  void card_went(const State& state, bool deal, CardId card, std::int32_t from, bool was_face_up);
  void close(const State& state, Story& story);
  static void add(Story& story, std::string line);  // a line of its own
  static void join(Story& story, const std::string& head, const std::string& part);  // `head part`, or `, part`
  void tell(const State& state, const std::string& line);  // to every viewer
  void reveal(const State& state);                          // the secrets, when no longer held
  [[nodiscard]] std::string rule_suffix(std::int32_t rule) const;
  [[nodiscard]] std::string choice_text(const State& state, const Value& choice, PlayerId viewer) const;
  [[nodiscard]] std::string who(PlayerId p) const;

  const Machine& machine_;
  std::vector<std::string> names_;
  std::vector<Story> stories_;
  std::vector<Secret> secrets_;
};

}  // namespace rulebook::interpreter
