// The affine hull of integer points, in exact rational arithmetic.
#include "affine_hull.hpp"

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

}  // namespace rulebook::verifier
