// The abstract syntax tree of a rule file: plain value structs, std::variant for each
// closed set of alternatives, and a SourceSpan on every node. The tree is copyable (a
// variant file is applied to a copy of its base), so recursion goes through Box<T>.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "rulebook/grammar/source.hpp"

namespace rulebook::grammar::ast {

// A heap cell with value semantics: copying a Box copies what it holds.
template <typename T>
class Box {
 public:
  Box() = default;
  Box(T value) : ptr_(std::make_unique<T>(std::move(value))) {}  // NOLINT: implicit on purpose
  Box(const Box& other) : ptr_(other.ptr_ ? std::make_unique<T>(*other.ptr_) : nullptr) {}
  Box(Box&&) noexcept = default;
  Box& operator=(const Box& other) {
    if (this != &other) ptr_ = other.ptr_ ? std::make_unique<T>(*other.ptr_) : nullptr;
    return *this;
  }
  Box& operator=(Box&&) noexcept = default;
  ~Box() = default;

  T& operator*() { return *ptr_; }
  const T& operator*() const { return *ptr_; }
  T* operator->() { return ptr_.get(); }
  const T* operator->() const { return ptr_.get(); }
  [[nodiscard]] bool has_value() const { return ptr_ != nullptr; }

 private:
  std::unique_ptr<T> ptr_;
};

// A name as written, with its place.
struct Ident {
  std::string text;
  SourceSpan span;
};

// ---- types -------------------------------------------------------------------------------

struct TypeExpr {
  enum class Kind { kInt, kBool, kPlayer, kCard, kNamed, kSetOf };
  Kind kind = Kind::kInt;
  std::string name;               // kNamed: an enum name
  std::vector<TypeExpr> element;  // kSetOf: exactly one element type
  SourceSpan span;
};

// ---- expressions -------------------------------------------------------------------------

struct Expr;

enum class UnaryOp { kNegate, kNot };
enum class BinaryOp {
  kOr, kAnd,
  kEq, kNe, kLt, kLe, kGt, kGe, kIn, kNotIn,
  kAdd, kSub, kMul, kDiv, kMod,
};

// Walk orders: around the table, or through a pile.
enum class OrderKind { kClockwise, kCounterclockwise, kBottomToTop, kTopToBottom };

struct Order {
  OrderKind kind = OrderKind::kClockwise;
  std::vector<Expr> from;  // seat orders: exactly one start player; pile orders: empty
  SourceSpan span;
};

struct IntLit { std::int64_t value = 0; };
struct BoolLit { bool value = false; };
struct NoneLit {};
struct PlayersLit {};                        // `players`: every seat, in seat order
struct NameRef { std::string name; };        // variable, option, constant, binder, enum value
struct SeatLit { Box<Expr> index; };         // `seat 0`
struct Call {                                // builtin, definition, per-player var or zone
  Ident callee;
  std::vector<Expr> args;
};
struct Unary { UnaryOp op; Box<Expr> operand; };
struct Binary { BinaryOp op; Box<Expr> lhs; Box<Expr> rhs; };
struct SetLit { std::vector<Expr> elements; };
struct Comprehension { Ident var; Box<Expr> domain; Box<Expr> filter; };  // {x in D where C}
enum class QuantKind { kExists, kAll, kCount, kSum };
struct Quantifier { QuantKind kind; Ident var; Box<Expr> domain; Box<Expr> body; };
struct Extremum {                            // max/min x in D by (k1, k2, ...): an element
  bool is_max = true;
  bool value = false;                        // max/min x in D: E: the value of E (keys: {E})
  Ident var;
  Box<Expr> domain;
  std::vector<Expr> keys;
};
struct First {                               // first x in D [order] [where C]
  Ident var;
  Box<Expr> domain;
  std::optional<Order> order;
  std::optional<Box<Expr>> filter;
};
struct Conditional { Box<Expr> condition; Box<Expr> then_value; Box<Expr> else_value; };

struct Expr {
  using Node = std::variant<IntLit, BoolLit, NoneLit, PlayersLit, NameRef, SeatLit, Call, Unary,
                            Binary, SetLit, Comprehension, Quantifier, Extremum, First,
                            Conditional>;
  Node node;
  SourceSpan span;
};

// ---- statements --------------------------------------------------------------------------

struct Stmt;

struct Block {
  std::vector<Stmt> stmts;
  SourceSpan span;
};

enum class Face { kUp, kDown };
enum class Placement { kTop, kBottom };

struct RuleStmt { Ident label; Box<Stmt> body; };
struct PhaseStmt { Ident name; Block body; };
struct RepeatStmt { Expr count; Block body; };
struct WhileStmt { bool until = false; Expr condition; Block body; };  // until C = while not C
struct ForEachStmt { Ident var; Expr domain; std::optional<Order> order; Block body; };
struct IfBranch { Expr condition; Block body; };
struct IfStmt { std::vector<IfBranch> branches; std::optional<Block> else_body; };
struct SimultaneousStmt { Ident var; Expr domain; Block body; };
// `at random`: no player decides, the game's generator draws; `chooser` is then unset (an
// empty Expr) and must not be read.
struct ChooseStmt { Ident var; Expr domain; Expr chooser; std::optional<Expr> filter; bool at_random = false; };
// One alternative of a decision with alternatives: `play c in hand(p) where G { ... }`.
struct Alternative {
  Ident name;
  std::optional<Ident> var;     // the element's name, with `domain`
  std::optional<Expr> domain;
  std::optional<Expr> guard;
  std::optional<Block> body;
  SourceSpan span;
};
// `choose by p { ALTERNATIVE ... }`: one decision; every legal (alternative, element) is a move.
struct MixedChooseStmt { Expr chooser; std::vector<Alternative> alternatives; };
struct LetStmt { Ident name; Expr value; };
struct MoveStmt {
  Expr cards;  // a card or a set of cards, each taken from wherever it lies
  Expr target;
  std::optional<Placement> placement;
  std::optional<Face> face;
};
struct DealStmt { Expr count; Expr source; Expr target; std::optional<Face> face; };
struct ShuffleStmt { Expr zone; };
struct FlipStmt { Expr cards; Face face = Face::kUp; };
struct SetStmt { Expr target; Expr value; };
struct AddStmt { Expr amount; Expr target; };
struct SwapSeatsStmt { Expr first; Expr second; };
struct EndGameStmt { std::optional<Expr> winners; };

struct Stmt {
  using Node = std::variant<RuleStmt, PhaseStmt, RepeatStmt, WhileStmt, ForEachStmt, IfStmt,
                            SimultaneousStmt, ChooseStmt, MixedChooseStmt, LetStmt, MoveStmt, DealStmt,
                            ShuffleStmt, FlipStmt, SetStmt, AddStmt, SwapSeatsStmt, EndGameStmt>;
  Node node;
  SourceSpan span;
};

// ---- declarations ------------------------------------------------------------------------

enum class ZoneShape { kPile, kSet };
enum class Visibility { kHidden, kOwner, kPublic };

struct PlayersDecl {
  std::int64_t min = 0;
  std::int64_t max = 0;
  std::optional<std::int64_t> default_count;  // `default N`: without --players, N players
  SourceSpan default_span;
};
struct SeatsDecl { std::int64_t count = 0; };
struct CardKindItem { Ident name; Expr count; };
struct CardsDecl {
  bool standard52 = false;
  std::optional<std::int64_t> jokers;
  SourceSpan standard52_span;
  SourceSpan jokers_span;
  std::vector<CardKindItem> kinds;
};
struct EnumDecl { Ident name; std::vector<Ident> values; };
struct ZoneDecl {
  Ident name;
  std::optional<Ident> param;  // per-player zone: `hand(p)`
  ZoneShape shape = ZoneShape::kPile;
  Visibility visibility = Visibility::kHidden;
};
struct VarDecl {
  Ident name;
  std::optional<Ident> param;  // per-player variable
  TypeExpr type;
  Expr init;
  bool per_round = false;      // reset to its initial value when each round starts
};
struct OptionDecl {
  Ident name;
  TypeExpr type;
  Expr default_value;
  std::optional<std::pair<std::int64_t, std::int64_t>> range;
  std::string doc;
};
struct Param { Ident name; TypeExpr type; };
struct DefDecl {
  Ident name;
  std::vector<Param> params;
  bool has_params = false;             // `f()` and `f` differ only in layout
  std::optional<TypeExpr> result;
  Expr body;
};
struct ScoreDecl { Ident name; Ident param; Expr value; };
// A payoff's value: a conditional whose two branches are payoff values (`condition` set), or
// `numerator [over denominator]`. Kept as written for the formatter; the lowering turns it
// into one numerator and one denominator expression.
struct PayoffValue {
  std::optional<Expr> condition;
  std::vector<PayoffValue> branches;  // then, else (a conditional only)
  std::optional<Expr> numerator;      // a ratio only
  std::optional<Expr> denominator;    // `over D`
  SourceSpan span;
};
struct PayoffDecl { Ident name; Ident param; PayoffValue value; };
// Calls f on every expression of a payoff value, in source order (the passes that only look
// at expressions: the checker, the expansion check).
template <typename F>
void for_each_payoff_expr(const PayoffValue& v, F&& f) {
  if (v.condition) f(*v.condition);
  for (const PayoffValue& b : v.branches) for_each_payoff_expr(b, f);
  if (v.numerator) f(*v.numerator);
  if (v.denominator) f(*v.denominator);
}
struct SetupDecl { Block body; };
struct RoundDecl { Block body; };
struct PolicyEntry { Ident rule; Expr choice; };
struct PolicyDecl { Ident name; std::vector<PolicyEntry> entries; };
struct InvariantDecl { Ident name; Expr condition; };
struct TerminatesDecl { Ident target; std::optional<Expr> measure; };
// Variant files only: replace an option's default, a labelled rule, or a definition.
struct OptionOverride { Ident name; Expr value; };
struct RuleOverride { Stmt rule; };  // always a RuleStmt
struct DefOverride { DefDecl def; };

struct Decl {
  using Node = std::variant<PlayersDecl, SeatsDecl, CardsDecl, EnumDecl, ZoneDecl, VarDecl,
                            OptionDecl, DefDecl, ScoreDecl, PayoffDecl, SetupDecl, RoundDecl, PolicyDecl,
                            InvariantDecl, TerminatesDecl, OptionOverride, RuleOverride,
                            DefOverride>;
  Node node;
  SourceSpan span;
};

enum class FileKind { kGame, kVariant };

struct RulesFile {
  FileKind kind = FileKind::kGame;
  std::string title;         // `game "Title"` or `variant "Title"`
  SourceSpan title_span;
  std::string base_path;     // variants: the base ruleset, relative to this file
  SourceSpan base_span;
  std::vector<Decl> decls;
  SourceSpan span;
};

}  // namespace rulebook::grammar::ast
