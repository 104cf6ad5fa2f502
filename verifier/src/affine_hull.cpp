// The affine hull of integer points, in exact rational arithmetic.
#include "affine_hull.hpp"

#include <cstdlib>
#include <map>
#include <numeric>

namespace rulebook::verifier {

bool AffineHull::add(const std::vector<std::int64_t>& point) {
  if (!base_) {
    base_ = point;
    return true;
  }
  std::vector<mpq_class> d(dimension_);
  bool zero = true;
  for (std::size_t i = 0; i < dimension_; ++i) {
    d[i] = static_cast<long>(point[i] - (*base_)[i]);
    zero = zero && d[i] == 0;
  }
  if (zero) return false;
  for (std::size_t r = 0; r < rows_.size(); ++r) {
    const mpq_class factor = d[pivots_[r]];
    if (factor == 0) continue;
    const std::vector<mpq_class>& row = rows_[r];
    for (std::size_t i = 0; i < dimension_; ++i) {
      if (row[i] != 0) d[i] -= factor * row[i];
    }
  }
  std::size_t pivot = dimension_;
  for (std::size_t i = 0; i < dimension_; ++i) {
    if (d[i] != 0) {
      pivot = i;
      break;
    }
  }
  if (pivot == dimension_) return false;
  const mpq_class scale = d[pivot];
  for (mpq_class& x : d) {
    if (x != 0) x /= scale;
  }
  for (std::vector<mpq_class>& row : rows_) {
    const mpq_class factor = row[pivot];
    if (factor == 0) continue;
    for (std::size_t i = 0; i < dimension_; ++i) {
      if (d[i] != 0) row[i] -= factor * d[i];
    }
  }
  rows_.push_back(std::move(d));
  pivots_.push_back(pivot);
  return true;
}

std::vector<LinearFact> AffineHull::equalities() const {
  std::vector<LinearFact> out;
  if (!base_) return out;
  std::vector<bool> is_pivot(dimension_, false);
  for (const std::size_t p : pivots_) is_pivot[p] = true;
  for (std::size_t f = 0; f < dimension_; ++f) {
    if (is_pivot[f]) continue;
    // The normal vector v: v[f] = 1, v[pivot_i] = -row_i[f], scaled to integers.
    mpz_class scale = 1;
    for (std::size_t i = 0; i < rows_.size(); ++i) {
      if (rows_[i][f] != 0) mpz_lcm(scale.get_mpz_t(), scale.get_mpz_t(), rows_[i][f].get_den_mpz_t());
    }
    std::vector<mpz_class> v(dimension_, 0);
    v[f] = scale;
    for (std::size_t i = 0; i < rows_.size(); ++i) {
      if (rows_[i][f] == 0) continue;
      const mpq_class x = rows_[i][f] * scale;
      v[pivots_[i]] = -x.get_num();
    }
    mpz_class g = 0;
    for (const mpz_class& x : v) mpz_gcd(g.get_mpz_t(), g.get_mpz_t(), x.get_mpz_t());
    LinearFact fact;
    mpz_class constant = 0;
    bool fits = true;
    for (std::size_t i = 0; i < dimension_ && fits; ++i) {
      if (v[i] == 0) continue;
      if (g > 1) v[i] /= g;
      fits = v[i].fits_slong_p();
      if (!fits) break;
      constant += v[i] * static_cast<long>((*base_)[i]);
      fact.terms.emplace_back(static_cast<std::int32_t>(i), v[i].get_si());
    }
    if (!fits || !constant.fits_slong_p()) continue;
    fact.constant = constant.get_si();
    out.push_back(std::move(fact));
  }
  return out;
}

namespace {
// 128-bit sums, so that no combination of 64-bit coefficients overflows before its check.
__extension__ typedef __int128 Wide;

// f * a + g * b with the terms in index order, or nothing when a coefficient passes
// kCombinedCoefficientLimit (a fact Z3 checks slowly and that is rarely the one needed).
constexpr std::int64_t kCombinedCoefficientLimit = std::int64_t{1} << 31;
std::optional<LinearFact> combined(const LinearFact& f, std::int64_t a, const LinearFact& g, std::int64_t b) {
  std::map<std::int32_t, Wide> terms;
  for (const auto& [i, c] : f.terms) terms[i] += static_cast<Wide>(c) * a;
  for (const auto& [i, c] : g.terms) terms[i] += static_cast<Wide>(c) * b;
  const Wide constant = static_cast<Wide>(f.constant) * a + static_cast<Wide>(g.constant) * b;
  std::int64_t divisor = 0;
  for (const auto& [i, c] : terms) {
    if (c == 0) continue;
    if (c > kCombinedCoefficientLimit || c < -kCombinedCoefficientLimit) return std::nullopt;
    divisor = std::gcd(divisor, static_cast<std::int64_t>(c));
  }
  if (divisor == 0 || constant > kCombinedCoefficientLimit * kCombinedCoefficientLimit ||
      constant < -kCombinedCoefficientLimit * kCombinedCoefficientLimit) {
    return std::nullopt;
  }
  if (constant % divisor != 0) return std::nullopt;  // no integer point satisfies it: cannot hold at the state
  LinearFact out;
  for (const auto& [i, c] : terms) {
    if (c != 0) out.terms.emplace_back(i, static_cast<std::int64_t>(c / divisor));
  }
  out.constant = static_cast<std::int64_t>(constant / divisor);
  return out;
}

}  // namespace

std::vector<LinearFact> join_equalities(std::vector<LinearFact> equalities, const std::vector<std::int64_t>& point) {
  std::vector<LinearFact> kept;
  std::vector<std::pair<LinearFact, std::int64_t>> broken;  // with how far the point is off
  for (LinearFact& f : equalities) {
    Wide sum = 0;
    for (const auto& [i, c] : f.terms) sum += static_cast<Wide>(c) * point[static_cast<std::size_t>(i)];
    const Wide off = sum - f.constant;
    if (off == 0) {
      kept.push_back(std::move(f));
    } else if (off > -kCombinedCoefficientLimit && off < kCombinedCoefficientLimit) {
      broken.emplace_back(std::move(f), static_cast<std::int64_t>(off));
    }
  }
  if (broken.size() < 2) return kept;
  // The pivot is the broken equality the point is least far off (smaller coefficients).
  std::size_t pivot = 0;
  for (std::size_t k = 1; k < broken.size(); ++k) {
    if (std::abs(broken[k].second) < std::abs(broken[pivot].second)) pivot = k;
  }
  const auto& [g, g_off] = broken[pivot];
  for (std::size_t k = 0; k < broken.size(); ++k) {
    if (k == pivot) continue;
    if (auto c = combined(broken[k].first, g_off, g, -broken[k].second)) kept.push_back(std::move(*c));
  }
  return kept;
}

}  // namespace rulebook::verifier
