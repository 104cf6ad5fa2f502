// The one source of randomness of a game, the same on every platform and standard library.
//
// Algorithm (documented in docs/log-format.md, and never to change within a log version):
// - seeding: the 64-bit seed goes through SplitMix64 four times to fill the state of
// - xoshiro256** (Blackman and Vigna, 2018), which gives 64-bit outputs;
// - below(n): a uniform integer in [0, n) by rejection: draw x until
//   x < 2^64 - (2^64 mod n), return x mod n;
// - shuffle: Fisher-Yates from the top: for i = n-1 down to 1, swap item i with item below(i + 1).
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace rulebook::interpreter {

class Rng {
 public:
  explicit Rng(std::uint64_t seed = 0) { reseed(seed); }

  void reseed(std::uint64_t seed) {
    for (std::uint64_t& word : state_) word = splitmix64(seed);
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  // Uniform in [0, n); n > 0.
  std::uint64_t below(std::uint64_t n) {
    const std::uint64_t limit = UINT64_MAX - (UINT64_MAX % n + 1) % n;  // largest multiple of n, minus 1
    std::uint64_t x = next();
    while (x > limit) x = next();
    return x % n;
  }

  template <typename T>
  void shuffle(std::vector<T>& items) {
    for (std::size_t i = items.size(); i > 1; --i) {
      const auto j = static_cast<std::size_t>(below(i));
      std::swap(items[i - 1], items[j]);
    }
  }

  // SplitMix64 step: advances `x` and returns the next output. Also used to derive
  // independent seeds (one per game of a simulation).
  static std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::array<std::uint64_t, 4> state_{};
};

}  // namespace rulebook::interpreter
