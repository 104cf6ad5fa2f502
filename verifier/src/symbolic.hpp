// The rules as a transition system over Z3 terms: each instruction of the IR, run on a
// symbolic abstract state (see layout.hpp), gives the state after it, the control positions
// it may go to, and the conditions under which the interpreter would stop with a fault.
// What the abstraction does not keep (card identities, facing, order, sets in variables) is
// read as a fresh value: every concrete step has a matching abstract step, never the other
// way round, so what holds of the abstraction holds of the game.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <map>
#include <set>
#include <unordered_map>
#include <string>
#include <vector>

#include <z3++.h>

#include "layout.hpp"
#include "rulebook/ir/fault_kinds.hpp"

namespace rulebook::verifier {

enum class ObligationKind : std::uint8_t {
  kTakeFromEmpty,  // deal, top, bottom: the source holds the cards taken
  kLegalChoice,    // a choice has at least one option
  kDefined,        // everything else the interpreter checks: a player where one is needed, ...
};

// The property that covers a fault kind (fault_kinds.hpp names it).
ObligationKind obligation_kind(ir::FaultKind fault);

struct Obligation {
  ObligationKind kind = ObligationKind::kDefined;
  ir::FaultKind fault = ir::FaultKind::kTypeMismatch;  // what the interpreter raises when it fails
  z3::expr holds;
  grammar::SourceSpan span;
  std::string what;
};

// A zone whose cards an expression looks at (`counted`: only its number of cards).
struct ZoneRead {
  z3::expr instance;
  z3::expr guard;
  bool counted = false;
  grammar::SourceSpan span;
};

// What a choice's options are computed from.
struct ChoiceReads {
  z3::expr chooser;
  std::vector<ZoneRead> zones;
};

struct Successor {
  z3::expr guard;
  std::int32_t pc = 0;
};

// One instruction run on a symbolic state.
struct Step {
  std::vector<z3::expr> assumptions;   // about the fresh values it introduced (always satisfiable)
  std::vector<z3::expr> continues;     // what the step needs to go on without a fault
  std::vector<z3::expr> next;          // the state after, by layout index
  std::vector<Successor> successors;   // where control goes; none: the game ends
  std::vector<Obligation> obligations; // must hold in the state before
  std::vector<bool> written;           // by layout index: may differ from the state before
};

class Encoder {
 public:
  Encoder(z3::context& ctx, const ir::Ir& ir, const Setting& setting, const CardClasses& classes,
          const Layout& layout, const SlotKinds& kinds);

  [[nodiscard]] std::vector<z3::expr> state_vars(const std::string& prefix) const;
  // Fills the derived dimensions (values read through a player) from the base ones.
  void complete(std::vector<z3::expr>& state, std::vector<bool>* written = nullptr) const;
  [[nodiscard]] std::vector<z3::expr> constants(const std::vector<std::int64_t>& values) const;

  // Instruction `pc` from `state`; fresh names start with `prefix`.
  Step step(std::int32_t pc, const std::vector<z3::expr>& state, const std::string& prefix);

  // A global expression (an invariant, a measure) in `state`: an int or bool term. Fresh
  // values and their assumptions are added to `step.assumptions`.
  z3::expr value(ir::ExprId id, const std::vector<z3::expr>& state, const std::string& prefix, Step& step);

  // A global expression that is a set of players: one bool per player, or nothing when the
  // abstraction does not keep it.
  std::optional<std::vector<z3::expr>> players(ir::ExprId id, const std::vector<z3::expr>& state,
                                               const std::string& prefix, Step& step);

  // The zones the options of the choice at `pc` are computed from.
  ChoiceReads choice_reads(std::int32_t pc, const std::vector<z3::expr>& state, const std::string& prefix, Step& step);

  [[nodiscard]] z3::context& context() const { return ctx_; }
  [[nodiscard]] const ir::Ir& ir() const { return ir_; }
  [[nodiscard]] const SlotKinds& kinds() const { return kinds_; }

 private:
  struct Sym;
  class Run;
  z3::context& ctx_;
  const ir::Ir& ir_;
  const Setting& setting_;
  const CardClasses& classes_;
  const Layout& layout_;
  const SlotKinds& kinds_;
  // Per class and attribute (rank, suit, color, kind): the value all its cards share, or
  // nothing when they differ.
  std::vector<std::array<std::optional<std::int64_t>, 4>> class_attribute_;
  // Per class and attribute, and over every card of the game (the last entry): the least and
  // the greatest value its cards have. An attribute that varies within a class is a fresh
  // value within these bounds (every card there has one of them), so `rank(c) + 1` of a card
  // of an unknown class cannot overflow. Empty when the class (or game) has no card.
  std::vector<std::array<std::optional<std::pair<std::int64_t, std::int64_t>>, 4>> attribute_range_;
  std::map<std::int32_t, std::vector<std::int32_t>> deferred_vars_;  // by kEndSecret pc
  std::set<std::int32_t> deferred_adds_;                             // kEndSecret pcs that apply an add
  // Zone terms of a per-player zone (its first instance plus a player), by term id: the
  // instances they can name on any path that goes on (a player outside the table is a
  // fault where the term is made). Kept across steps, so that a card chosen from a hand and
  // moved later in the same block is known to leave every other zone alone. The term is
  // held so that its id is not given to another term.
  struct ZoneRange {
    z3::expr term;
    std::int32_t first, last;
  };
  mutable std::unordered_map<unsigned, ZoneRange> zone_range_;
};

}  // namespace rulebook::verifier
