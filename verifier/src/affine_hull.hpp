// The affine hull of a set of integer points and the linear equalities that describe it:
// the equality part of the invariants the verifier guesses from simulated states.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include <gmpxx.h>

namespace rulebook::verifier {

// One linear fact: sum(coefficient * x[index]) == constant (or >= constant).
struct LinearFact {
  std::vector<std::pair<std::int32_t, std::int64_t>> terms;
  std::int64_t constant = 0;
  bool equality = true;
};

// The affine hull of a set of integer points: a base point and the span of the differences,
// kept in reduced row echelon form over exact rationals (GMP), so that no elimination can
// overflow.
class AffineHull {
 public:
  explicit AffineHull(std::size_t dimension = 0) : dimension_(dimension) {}
  // Returns true if the point was outside the hull (the hull grew).
  bool add(const std::vector<std::int64_t>& point);
  [[nodiscard]] bool empty() const { return !base_; }
  [[nodiscard]] std::size_t rank() const { return rows_.size(); }
  // The equalities every point of the hull satisfies (a basis; equalities whose integer
  // coefficients do not fit 64 bits are left out, which is sound).
  [[nodiscard]] std::vector<LinearFact> equalities() const;

 private:
  std::size_t dimension_;
  std::optional<std::vector<std::int64_t>> base_;
  std::vector<std::vector<mpq_class>> rows_;  // each row's pivot is 1, zero in the other rows
  std::vector<std::size_t> pivots_;
};

// The equalities of `equalities` that hold at `point`, and for those it breaks, the
// combinations of two that it keeps: f - g * (how far the point is off f) / (how far it is
// off g). Dropping each broken equality would lose what two of them state together: "the
// deck holds 16" and "the hands and the discards hold 24" both break at a state whose deck
// holds 15, but their sum (the 40 cards) holds there, and conservation needs it. This is
// the affine hull's own join of the point, done on the list of equalities alone (cheap
// where the hull's rank is high). One equality fewer is kept than broken, so a weakening
// that joins states this way still ends.
std::vector<LinearFact> join_equalities(std::vector<LinearFact> equalities, const std::vector<std::int64_t>& point);

}  // namespace rulebook::verifier
