// The statistics file of `simulate --stats` and `merge --stats`: saving it, and reading it
// back. A file read back is untrusted (it may be edited, truncated or made up), so every
// count is checked against the others before `merge` adds it or the report divides by it.
#include "rulebook/stats/stats_file.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <set>
#include <vector>

#include <fmt/format.h>

#include "counts.hpp"
#include "rulebook/grammar/printable.hpp"
#include "rulebook/interpreter/machine.hpp"

namespace rulebook::stats {

namespace {

nlohmann::json histogram_json(const std::map<std::int64_t, std::int64_t>& h) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [value, count] : h) out.push_back({value, count});
  return out;
}

// A long double in hexadecimal ("0x1.8p+1"): it reads back exactly.
std::string hex_float(long double v) { return fmt::format("{:a}", v); }

nlohmann::json payoffs_json(const SimulationStats& s) {
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t i = 0; i < s.payoff_names.size(); ++i) {
    nlohmann::json sum = nlohmann::json::array(), sum_sq = nlohmann::json::array();
    if (i < s.payoff_sum.size()) {
      for (const long double v : s.payoff_sum[i]) sum.push_back(hex_float(v));
      for (const long double v : s.payoff_sum_sq[i]) sum_sq.push_back(hex_float(v));
    }
    out.push_back({{"name", s.payoff_names[i]}, {"sum", sum}, {"sum_sq", sum_sq}});
  }
  return out;
}

}  // namespace

nlohmann::json stats_to_json(const SimulationStats& s) {
  nlohmann::json options = nlohmann::json::object();
  for (const auto& [name, value] : s.options) options[name] = value;
  return {{"rulebook-stats", kStatsVersion},
          {"ruleset", s.ruleset},
          {"file", s.file},
          {"hash", s.source_hash},
          {"players_requested", s.players_requested},
          {"options", options},
          {"seed", std::to_string(s.seed)},  // a string: JSON readers may hold numbers as doubles
          {"max_moves", s.max_moves},
          {"games", s.games},
          {"shard", s.shard},
          {"shards", s.shards},
          {"labels", s.labels},
          {"label_places", s.label_places},
          {"first", s.first_game()},  // for readers; derived from games and shard
          {"played", s.played},
          {"interrupted", s.interrupted},
          {"automated", s.automated},
          {"wins", s.wins},
          {"no_winner", s.no_winner},
          {"capped", s.capped},
          {"capped_games", s.capped_games},
          {"rounds", histogram_json(s.rounds)},
          {"moves", histogram_json(s.moves)},
          {"reached", s.reached},
          {"fired", s.fired},
          {"payoffs", payoffs_json(s)}};
}

std::string stats_file_text(const SimulationStats& stats) {
  return detail::json_text(stats_to_json(stats), 1) + "\n";
}

namespace {

template <typename T>
T field(const nlohmann::json& j, const char* key) {
  if (!j.contains(key)) throw StatsError(fmt::format("\"{}\" is missing", key));
  try {
    return j.at(key).get<T>();
  } catch (const nlohmann::json::exception&) {
    throw StatsError(fmt::format("\"{}\" has the wrong type", key));
  }
}

const nlohmann::json& array_field(const nlohmann::json& j, const char* key) {
  if (!j.contains(key)) throw StatsError(fmt::format("\"{}\" is missing", key));
  if (!j.at(key).is_array()) throw StatsError(fmt::format("\"{}\" has the wrong type", key));
  return j.at(key);
}

// A count: a whole number from 0 to 2^63 - 1. nlohmann's get<> would take 1.5 as 1 and a
// number past 2^63 as a negative one, so the kind of number is checked first.
std::int64_t whole_number(const nlohmann::json& value, const std::string& what) {
  if (!value.is_number_integer()) throw StatsError(fmt::format("{} is not a whole number", what));
  if (value.is_number_unsigned()) {
    if (value.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      throw StatsError(fmt::format("{} is larger than {}", what, std::numeric_limits<std::int64_t>::max()));
    }
    return static_cast<std::int64_t>(value.get<std::uint64_t>());
  }
  const auto n = value.get<std::int64_t>();
  if (n < 0) throw StatsError(fmt::format("{} is negative", what));
  return n;
}

std::int64_t count_field(const nlohmann::json& j, const char* key) {
  if (!j.contains(key)) throw StatsError(fmt::format("\"{}\" is missing", key));
  return whole_number(j.at(key), fmt::format("\"{}\"", key));
}

// `reached` and `fired` count rule starts, unsigned 64-bit like the interpreter's counters.
std::vector<std::uint64_t> firing_counts(const nlohmann::json& j, const char* key) {
  std::vector<std::uint64_t> out;
  const nlohmann::json& list = array_field(j, key);
  for (std::size_t l = 0; l < list.size(); ++l) {
    if (!list[l].is_number_unsigned()) {  // nlohmann stores 0 and up as unsigned, negatives as signed
      throw StatsError(fmt::format("\"{}\" of label {} is not a whole number from 0 to {}", key, l,
                                   std::numeric_limits<std::uint64_t>::max()));
    }
    out.push_back(list[l].get<std::uint64_t>());
  }
  return out;
}

using detail::add_count;

// A finite long double as hex_float writes it (any form strtold reads is taken).
long double hex_value(const nlohmann::json& v, const std::string& what) {
  if (!v.is_string()) throw StatsError(fmt::format("{} is not a number in a string", what));
  const std::string text = v.get<std::string>();
  char* end = nullptr;
  const long double out = std::strtold(text.c_str(), &end);
  if (text.empty() || std::isspace(static_cast<unsigned char>(text.front())) != 0 || end != text.c_str() + text.size() ||
      !std::isfinite(out)) {
    throw StatsError(fmt::format("{} is not a finite number", what));
  }
  return out;
}

// "payoffs": [{"name", "sum": [per seat], "sum_sq": [per seat]}], one entry a payoff.
void payoffs_field(const nlohmann::json& j, SimulationStats& s) {
  for (const nlohmann::json& entry : array_field(j, "payoffs")) {
    if (!entry.is_object()) throw StatsError("\"payoffs\" holds something other than an object");
    const auto name = field<std::string>(entry, "name");
    std::vector<long double> sum, sum_sq;
    for (const nlohmann::json& v : array_field(entry, "sum")) sum.push_back(hex_value(v, "a \"sum\" of payoff " + name));
    for (const nlohmann::json& v : array_field(entry, "sum_sq")) {
      const long double x = hex_value(v, "a \"sum_sq\" of payoff " + name);
      if (x < 0) throw StatsError(fmt::format("a \"sum_sq\" of payoff {} is negative", name));
      sum_sq.push_back(x);
    }
    if (sum.size() != sum_sq.size() || (sum.size() != s.automated.size() && !sum.empty())) {
      throw StatsError(fmt::format("\"sum\" and \"sum_sq\" of payoff {} do not have one number a seat", name));
    }
    if (sum.empty() && s.finished() > 0) throw StatsError(fmt::format("payoff {} has no sums for its finished games", name));
    sum.resize(s.automated.size(), 0);
    sum_sq.resize(s.automated.size(), 0);
    s.payoff_names.push_back(name);
    s.payoff_sum.push_back(std::move(sum));
    s.payoff_sum_sq.push_back(std::move(sum_sq));
  }
}

// [[value, games], ...] with values from 0 to `max_value`, each once, each counted at least once.
std::map<std::int64_t, std::int64_t> histogram_field(const nlohmann::json& j, const char* key,
                                                     std::int64_t max_value) {
  std::map<std::int64_t, std::int64_t> h;
  for (const nlohmann::json& pair : array_field(j, key)) {
    if (!pair.is_array() || pair.size() != 2) {
      throw StatsError(fmt::format("\"{}\" holds something other than a [value, games] pair", key));
    }
    const std::int64_t value = whole_number(pair[0], fmt::format("a value in \"{}\"", key));
    const std::int64_t count = whole_number(pair[1], fmt::format("a count in \"{}\"", key));
    if (value > max_value) {
      throw StatsError(std::string(key) == "moves"
                           ? fmt::format("\"{}\" has a value outside 0 to --max-moves", key)
                           : fmt::format("\"{}\" has a value outside 0 to {} (the most a game can have within "
                                         "--max-moves)", key, max_value));
    }
    if (count == 0 || !h.emplace(value, count).second) {
      throw StatsError(fmt::format("\"{}\" has a repeated value or a count below 1", key));
    }
  }
  return h;
}

// The capped games listed: in increasing order, in the shard, and as many as the version
// lists (every one in version 1, the first kCappedListed from version 2 on). A version-1
// list is cut to the first kCappedListed, as simulate keeps them now.
std::vector<std::int64_t> capped_games_field(const nlohmann::json& j, const SimulationStats& s, int version) {
  std::vector<std::int64_t> games;
  for (const nlohmann::json& g : array_field(j, "capped_games")) {
    games.push_back(whole_number(g, "a game in \"capped_games\""));
  }
  const auto listed = static_cast<std::int64_t>(games.size());
  const std::int64_t expected = version == 1 ? s.capped : std::min<std::int64_t>(s.capped, kCappedListed);
  if (listed != expected) {
    throw StatsError(fmt::format("\"capped_games\" lists {} games, but \"capped\" is {}{}", listed, s.capped,
                                 version == 1 ? " (version 1 lists every capped game)"
                                              : fmt::format(" (the first {} are listed)", kCappedListed)));
  }
  const auto [first, last] = shard_range(s.games, s.shard, s.shards);
  for (std::size_t i = 0; i < games.size(); ++i) {
    if (games[i] < first || games[i] >= last) throw StatsError("\"capped_games\" holds a game outside the shard");
    if (i > 0 && games[i] <= games[i - 1]) throw StatsError("\"capped_games\" is not in increasing order");
  }
  if (games.size() > kCappedListed) games.resize(kCappedListed);
  return games;
}

// The most rounds a game can have: a round takes a step at least, and the interpreter takes
// at most kMaxStepsBetweenDecisions steps before each decision and after the last.
std::int64_t max_rounds(std::int64_t max_moves) {
  std::int64_t out = 0;
  if (__builtin_mul_overflow(max_moves + 1, interpreter::Machine::kMaxStepsBetweenDecisions, &out)) {
    return std::numeric_limits<std::int64_t>::max();
  }
  return out;
}

// The payoffs of a game are exact fractions of 64-bit integers, so each is at most 2^63 in
// size: a sum over n games is at most n * 2^63, a sum of squares at most n * 2^126, and
// (Cauchy-Schwarz) a sum's square at most n times the sum of squares. A file past these
// printed "inf" means and variances below 0.
void check_payoffs(const SimulationStats& s) {
  const auto n = static_cast<long double>(s.finished());
  const long double most = std::ldexp(1.0L, 63);
  for (std::size_t k = 0; k < s.payoff_sum.size(); ++k) {
    for (std::size_t p = 0; p < s.payoff_sum[k].size(); ++p) {
      const long double sum = s.payoff_sum[k][p];
      const long double sum_sq = s.payoff_sum_sq[k][p];
      const std::string what = fmt::format("payoff {} of player {}", s.payoff_names[k], p);
      if (std::fabs(sum) > n * most) {
        throw StatsError(fmt::format("the \"sum\" of {} is larger than {} finished games can give", what, s.finished()));
      }
      if (sum_sq > n * most * most) {
        throw StatsError(fmt::format("the \"sum_sq\" of {} is larger than {} finished games can give", what, s.finished()));
      }
      // Rounding makes the sum of squares a hair smaller than it should be: allow for it.
      if (sum * sum > n * sum_sq * (1 + 1e-12L) + 1e-9L) {
        throw StatsError(fmt::format("the \"sum\" and \"sum_sq\" of {} cannot both be right (the variance would be "
                                     "below 0)", what));
      }
    }
  }
}

// Names are printed in the report, in charts (SVG, where most control characters are not even
// allowed) and in JSON; simulate writes none (a title cannot hold one; paths are written out
// with grammar::printable), so a statistics file that has one was made by hand.
void check_text(const SimulationStats& s) {
  const auto plain = [](const std::string& text, const std::string& what) {
    if (grammar::has_control_character(text)) {
      throw StatsError(fmt::format("{} holds a control character ({})", what, grammar::printable(text)));
    }
  };
  plain(s.ruleset, "\"ruleset\"");
  plain(s.file, "\"file\"");
  plain(s.source_hash, "\"hash\"");
  for (const auto& [name, value] : s.options) {
    plain(name, "an option's name");
    plain(value, fmt::format("option {}", grammar::printable(name)));
  }
  for (const std::string& label : s.labels) plain(label, "a label");
  std::vector<std::string> labels = s.labels;
  std::sort(labels.begin(), labels.end());
  if (const auto twice = std::adjacent_find(labels.begin(), labels.end()); twice != labels.end()) {
    throw StatsError(fmt::format("the label {} is listed twice", grammar::printable(*twice)));
  }
  for (const std::string& place : s.label_places) plain(place, "a label's place");
  for (const std::string& name : s.payoff_names) plain(name, "a payoff's name");
}

// The parts must fit together, or the report would read past them or show shares above 100%.
void check_counts(const SimulationStats& s) {
  check_text(s);
  const auto [first, last] = shard_range(s.games, s.shard, s.shards);
  if (s.played > last - first) throw StatsError("\"played\" is more than the shard's games");
  // simulate marks a run interrupted only when it played fewer than its games.
  if (s.interrupted && s.played == last - first) {
    throw StatsError(fmt::format("\"interrupted\" is true, but all {} games of the shard were played", s.played));
  }
  if (s.label_places.size() != s.labels.size() || s.reached.size() != s.labels.size() ||
      (s.version >= 3 && !s.fired.empty() && s.fired.size() != s.labels.size())) {
    // An empty "fired" is a file merged from files of version 1 or 2, which did not record
    // firings: read back as it was saved (the fifth probe found merge refusing its own output).
    throw StatsError("\"labels\", \"label_places\", \"reached\" and \"fired\" differ in length");
  }
  for (std::size_t l = 0; l < s.fired.size(); ++l) {
    if (s.fired[l] > s.reached[l]) throw StatsError(fmt::format("\"fired\" of label {} is more than \"reached\"", l));
  }
  if (s.wins.size() != s.automated.size()) throw StatsError("\"wins\" and \"automated\" differ in length");
  if (s.capped > s.played) throw StatsError("\"capped\" is more than \"played\"");
  if (s.no_winner > s.finished()) throw StatsError("\"no_winner\" is more than the finished games");
  // Each finished game has no winner or one or more; a seat wins a game at most once.
  const std::int64_t with_winner = s.finished() - s.no_winner;
  std::int64_t wins = 0;
  for (std::size_t p = 0; p < s.wins.size(); ++p) {
    if (s.wins[p] > with_winner) {
      throw StatsError(fmt::format("\"wins\" of player {} is more than the games with a winner ({})", p, with_winner));
    }
    add_count(wins, s.wins[p], "\"wins\"");
  }
  if (wins < with_winner) throw StatsError("\"wins\" add up to less than the games with a winner");
  for (const auto& [key, histogram] : {std::pair{"rounds", &s.rounds}, std::pair{"moves", &s.moves}}) {
    std::int64_t counted = 0;
    for (const auto& [value, count] : *histogram) {
      if (__builtin_add_overflow(counted, count, &counted)) counted = -1;
      if (counted < 0) break;
    }
    if (counted != s.finished()) {
      throw StatsError(fmt::format("\"{}\" counts {} games, but {} were finished (\"played\" {} less \"capped\" {})", key,
                                   counted, s.finished(), s.played, s.capped));
    }
  }
  // After the counts: a wrong "played" was reported as payoff sums that "cannot both be
  // right" (the ninth probe), when the games counted are what disagrees.
  check_payoffs(s);
}

}  // namespace

SimulationStats stats_from_json(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("rulebook-stats")) {
    throw StatsError("not a statistics file of 'rulebook simulate --stats'");
  }
  // A whole number: get<int> read 4.9 as 4, and a huge float converted to an int is undefined.
  if (!j.contains("rulebook-stats") || !j.at("rulebook-stats").is_number_integer()) {
    throw StatsError("\"rulebook-stats\", the format's version, is not a whole number");
  }
  const std::int64_t version_number = whole_number(j.at("rulebook-stats"), "\"rulebook-stats\"");
  if (version_number < 1 || version_number > kStatsVersion) {
    throw StatsError(fmt::format("an unknown version of the statistics format ({}; this rulebook reads 1 to {})",
                                 version_number, kStatsVersion));
  }
  const int version = static_cast<int>(version_number);
  SimulationStats s;
  s.ruleset = field<std::string>(j, "ruleset");
  s.file = field<std::string>(j, "file");
  s.source_hash = field<std::string>(j, "hash");
  s.players_requested = count_field(j, "players_requested");
  s.options = field<std::map<std::string, std::string>>(j, "options");
  const auto seed = field<std::string>(j, "seed");
  try {
    // Digits only: stoull also takes " 42" and "+42", which simulate never writes.
    if (seed.empty() || seed.find_first_not_of("0123456789") != std::string::npos) throw std::invalid_argument(seed);
    std::size_t used = 0;
    s.seed = std::stoull(seed, &used);
    if (used != seed.size()) throw std::invalid_argument(seed);
  } catch (const std::exception&) {
    throw StatsError("\"seed\" is not a whole number");
  }
  s.max_moves = count_field(j, "max_moves");
  s.games = count_field(j, "games");
  if (s.games < 1 || s.games > kMaxGames) {
    throw StatsError(fmt::format("\"games\" is {}, but a run has 1 to {} games (simulate --games)", s.games, kMaxGames));
  }
  s.shard = count_field(j, "shard");
  s.shards = count_field(j, "shards");
  if (s.shards < 1 || s.shards > kMaxShards || s.shard >= s.shards) {
    throw StatsError(fmt::format("\"shard\" is not below \"shards\", or \"shards\" is not from 1 to {}", kMaxShards));
  }
  // Derived from games and shard, and read by other tools: one that disagrees is not a file
  // simulate wrote (merge passed over it: the eighth probe).
  if (j.contains("first") && !(j.at("first").is_number_integer() && j.at("first").get<std::int64_t>() == s.first_game())) {
    std::string given = j.at("first").dump();
    if (given.size() > 40) given = given.substr(0, 40) + "...";
    throw StatsError(fmt::format("\"first\" is {}, but shard {} of {} of {} games begins at game {}", given, s.shard,
                                 s.shards, s.games, s.first_game()));
  }
  s.labels = field<std::vector<std::string>>(j, "labels");
  s.label_places = field<std::vector<std::string>>(j, "label_places");
  s.played = count_field(j, "played");
  s.interrupted = field<bool>(j, "interrupted");
  s.automated = field<std::vector<bool>>(j, "automated");
  const nlohmann::json& wins = array_field(j, "wins");
  for (std::size_t p = 0; p < wins.size(); ++p) {
    s.wins.push_back(whole_number(wins[p], fmt::format("\"wins\" of player {}", p)));
  }
  s.no_winner = count_field(j, "no_winner");
  s.capped = count_field(j, "capped");
  if (s.capped > s.played) throw StatsError("\"capped\" is more than \"played\"");
  s.capped_games = capped_games_field(j, s, version);
  s.rounds = histogram_field(j, "rounds", max_rounds(s.max_moves));
  s.moves = histogram_field(j, "moves", s.max_moves);
  s.version = version;
  if (version >= 3) {
    s.reached = firing_counts(j, "reached");
    s.fired = firing_counts(j, "fired");
  } else {
    s.reached = firing_counts(j, "fired");  // counted starts
  }
  if (version >= 4) payoffs_field(j, s);
  check_counts(s);
  return s;
}

namespace {

constexpr std::size_t kMaxStatsDepth = 16;

// nlohmann keeps the last of two equal keys; a statistics file gives each key once, as a log
// does (docs/log-format.md). A SAX pass finds a key given twice at any depth.
class KeysOnce : public nlohmann::json_sax<nlohmann::json> {
 public:
  std::string twice;
  bool too_deep = false;
  bool null() override { return true; }
  bool boolean(bool /*value*/) override { return true; }
  bool number_integer(number_integer_t /*value*/) override { return true; }
  bool number_unsigned(number_unsigned_t /*value*/) override { return true; }
  bool number_float(number_float_t /*value*/, const string_t& /*text*/) override { return true; }
  bool string(string_t& /*value*/) override { return true; }
  bool binary(binary_t& /*value*/) override { return true; }
  bool start_object(std::size_t /*size*/) override {
    keys_.emplace_back();
    return deeper();
  }
  bool key(string_t& value) override {
    if (!keys_.back().insert(value).second) {
      twice = value;
      return false;
    }
    return true;
  }
  bool end_object() override {
    keys_.pop_back();
    --depth_;
    return true;
  }
  bool start_array(std::size_t /*size*/) override { return deeper(); }
  bool end_array() override {
    --depth_;
    return true;
  }
  bool parse_error(std::size_t /*position*/, const std::string& /*last_token*/,
                   const nlohmann::detail::exception& /*error*/) override {
    return false;  // the parse below reports it
  }

 private:
  // A statistics file nests four deep; a million `[` took 38 times the file's size as a
  // JSON value (the sixth probe), so the parse stops past kMaxStatsDepth.
  bool deeper() {
    if (++depth_ <= kMaxStatsDepth) return true;
    too_deep = true;
    return false;
  }
  std::vector<std::set<std::string>> keys_;
  std::size_t depth_ = 0;
};

}  // namespace

SimulationStats stats_from_text(std::string_view text) {
  KeysOnce keys;
  nlohmann::json::sax_parse(text, &keys, nlohmann::json::input_format_t::json, false);
  if (keys.too_deep) throw StatsError(fmt::format("arrays and objects are nested deeper than {} levels", kMaxStatsDepth));
  if (!keys.twice.empty()) {
    throw StatsError(fmt::format("the key \"{}\" is given twice in one object", grammar::printable(keys.twice)));
  }
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    // Not only syntax: a number past a double's range (1e400, or five million digits) is
    // out_of_range 406, which aborted `merge` (the seventh probe).
    throw StatsError(fmt::format("not JSON: {}", grammar::printable(e.what())));
  }
  return stats_from_json(j);
}

}  // namespace rulebook::stats
