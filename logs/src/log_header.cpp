#include "log_header.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <system_error>

#include <fmt/format.h>

#include "rulebook/grammar/printable.hpp"
#include "rulebook/logs/log.hpp"

namespace rulebook::interpreter::detail {

std::string reserved_name(const std::string& text, std::int32_t seat) {
  std::string lower;
  for (const char c : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "table") return "is the word answers use for the table";
  if (lower == "undo" || lower == "quit" || lower == "?") return "is a word of record's prompt";
  for (const std::string_view word : {std::string_view("player "), std::string_view("seat ")}) {
    if (lower.rfind(word, 0) != 0) continue;
    const std::string number = lower.substr(word.size());
    if (number.empty() || number.size() > 9 || number.find_first_not_of("0123456789") != std::string::npos) continue;
    if (std::stol(number) != seat) {
      return fmt::format("is how messages name seat {}, but it names seat {}", std::stol(number), seat);
    }
  }
  return "";
}

namespace {

[[noreturn]] void throw_bad(const LogLine& line, std::string_view key, const std::string& message) {
  throw LogError(line, std::string(key), message);
}

}  // namespace

bool is_known_header_key(std::string_view key) {
  static constexpr std::string_view kKnown[] = {"log",  "version",   "ruleset", "files",   "hash", "players",
                                                "seats", "names", "automated", "options", "seed"};
  return std::find(std::begin(kKnown), std::end(kKnown), key) != std::end(kKnown);
}

LogHeader read_log_header(LogReader& reader, const Machine& machine, const std::map<std::string, std::string>& overrides,
                           bool strict) {
  const Ir& ir = machine.ir();
  const LogEvent header = reader.read_header();
  LogHeader out;
  out.line = header.line;
  GameConfig& config = out.config;
  const LogValue h = header.value();
  if (!h.at("log").is("rulebook")) throw_bad(header.line, "log", "not a rulebook log: \"log\" must be \"rulebook\"");
  if (!h.contains("version")) throw_bad(header.line, "", "the header needs \"version\" (the format version, 1)");
  if (!h.at("version").is_integer() || h.at("version").integer() != kLogVersion) {
    throw_bad(header.line, "version", fmt::format("unknown log format version {}: this rulebook reads version {}",
                                           h.at("version").shown(), kLogVersion));
  }
  // A warning each for the first few; each one searches the line for its key, so thousands
  // of them (a 3 MB header) took minutes. The rest are counted in one more.
  constexpr std::size_t kWarnedKeys = 20;
  std::size_t unknown = 0;
  h.each_member([&](std::string_view key, LogValue) {
    if (is_known_header_key(key)) return;
    if (++unknown <= kWarnedKeys) {
      out.warnings.push_back({std::string(key), fmt::format("unknown header key '{}' (ignored)", shown(key))});
    }
  });
  if (unknown > kWarnedKeys) {
    out.warnings.push_back({"", fmt::format("and {} more unknown header keys (ignored)", unknown - kWarnedKeys)});
  }
  if (h.contains("hash")) {
    LogValue hash = h.at("hash");
    if (!hash.is_string()) throw_bad(header.line, "hash", "\"hash\" is a string of hex digits");
    if (hash.text() != ir.source_hash) {
      std::vector<std::string> files;  // as the log names them: file names, or paths in older logs
      if (const std::optional<LogValue> listed = h.find("files"); listed && listed->is_array()) {
        listed->each([&](LogValue f) { files.push_back(f.shown()); });
      }
      const std::string message = fmt::format("the log was written for other rule files ({}hash {}, these rules {})",
                                              files.empty() ? "" : fmt::format("{}, ", fmt::join(files, ", ")),
                                              hash.shown(), ir.source_hash);
      if (strict) throw_bad(header.line, "hash", message + "; --strict makes this an error");
      out.warnings.push_back({"hash", message});
    }
  }
  if (h.contains("ruleset") && !h.at("ruleset").is(ir.title)) {
    out.warnings.push_back({"ruleset", fmt::format("the log is of '{}', these rules are '{}'", h.at("ruleset").shown(), ir.title)});
  }

  if (!h.contains("players")) throw_bad(header.line, "", "the header needs \"players\" (the number of human players)");
  LogValue players = h.at("players");
  // "4" (a string) and 4.0 were reported as a count out of range, "not 4".
  if (!players.is_integer()) {
    throw_bad(header.line, "players", fmt::format("\"players\" is a whole number such as {}, not {}", ir.players_min, players.shown()));
  }
  if (players.integer() < ir.players_min ||
      players.integer() > ir.players_max) {
    throw_bad(header.line, "players", fmt::format("'{}' is for {} to {} players, not {}", ir.title, ir.players_min,
                                           ir.players_max, players.shown()));
  }
  config.players = players.integer();
  const auto players_count = static_cast<std::int32_t>(config.players);
  out.seats = static_cast<std::int32_t>(ir.fixed_seats ? ir.seats : config.players);
  if (h.contains("seats") && !h.at("seats").is(out.seats)) {
    throw_bad(header.line, "seats", fmt::format("these rules seat {} with {} players, not {}", out.seats, players_count, h.at("seats").shown()));
  }
  if (h.contains("automated")) {
    LogValue automated = h.at("automated");
    // A value of the wrong type is that, not a disagreement (`"no"`: the tenth probe).
    bool typed = automated.is_array();
    if (typed) automated.each([&](LogValue a) { typed = typed && a.is_bool(); });
    if (!typed) throw_bad(header.line, "automated", "\"automated\" is a list of true or false, one a seat");
    bool ok = automated.size() == static_cast<std::size_t>(out.seats);
    std::int32_t p = 0;
    if (ok) {
      automated.each([&](LogValue a) {
        ok = ok && a.is_bool() && a.boolean() == (p >= players_count);
        ++p;
      });
    }
    if (!ok) {
      throw_bad(header.line, "automated",
              fmt::format("with {} players the first {} seats are human and the other {} automated; \"automated\" says otherwise",
                          players_count, players_count, out.seats - players_count));
    }
  }
  std::vector<std::string> names;  // stays empty when the log names no seats
  if (h.contains("names")) {
    LogValue listed = h.at("names");
    // One name per player, or one per seat to name the automated seats too. A list as long
    // as the seats where there are fewer players must say so with "seats": otherwise
    // `"players": 3` with four names reads as a fourth player the header forgot, and the
    // replay would have made that player an automated seat without a word.
    const auto count = listed.is_array() ? listed.size() : std::size_t{0};
    const bool per_player = count == static_cast<std::size_t>(players_count);
    const bool per_seat = count == static_cast<std::size_t>(out.seats);
    if (!listed.is_array() || (!per_player && !per_seat)) {
      const std::string given = listed.is_array() ? fmt::format("{} names", count) : listed.shown();
      throw_bad(header.line, "names",
                out.seats == players_count
                    ? fmt::format("\"names\" lists one name per player ({}), not {}", players_count, given)
                    : fmt::format("\"names\" lists one name per player ({}), or one per seat ({}) to name the automated seats too, not {}",
                                  players_count, out.seats, given));
    }
    if (!per_player && !h.contains("seats")) {
      throw_bad(header.line, "names",
                fmt::format("\"names\" lists {} names but \"players\" is {}: list one name per player, or one per seat "
                            "with \"seats\": {} to name the automated seat{} too",
                            count, players_count, out.seats, out.seats - players_count == 1 ? "" : "s"));
    }
    listed.each([&](LogValue name) {
      if (!name.is_string() || name.text().empty()) throw_bad(header.line, "names", "a seat name is a non-empty string");
      const std::string text = name.text();
      // Messages name seats whole, in every step they report: a seat name is short.
      if (text.size() > kShownChars) {
        throw_bad(header.line, "names", fmt::format("seat name '{}' is longer than {} bytes", shown(text), kShownChars));
      }
      if (text.find_first_not_of("0123456789") == std::string::npos) {
        throw_bad(header.line, "names", fmt::format("seat name '{}' is a number: numbers already name seats by position", shown(text)));
      }
      if (text.find_first_of("()") != std::string::npos) throw_bad(header.line, "names", fmt::format("seat name '{}' has a parenthesis", shown(text)));
      // Messages call an unnamed seat "player N" and answers may say "table": a name of that
      // form for another seat made "it is not player 1's move" mean two seats (the seventh
      // probe). "player 2" for seat 2 itself names nothing new and is kept.
      if (const std::string why = reserved_name(text, static_cast<std::int32_t>(names.size())); !why.empty()) {
        throw_bad(header.line, "names", fmt::format("seat name '{}' {}", shown(text), why));
      }
      // Names are printed in every step a replay tells: no escape sequence, no line break.
      if (grammar::has_control_character(text)) {
        throw_bad(header.line, "names", fmt::format("seat name '{}' has a control character", shown(text)));
      }
      if (std::find(names.begin(), names.end(), text) != names.end()) {
        throw_bad(header.line, "names", fmt::format("seat name '{}' is given twice", shown(text)));
      }
      names.push_back(text);
    });
  }
  out.names = std::move(names);

  if (h.contains("seed")) {
    // Informational (a log records every shuffle), but checked: a malformed seed was passed
    // over by replay and written back as "0" by record (the seventh probe).
    LogValue seed = h.at("seed");
    const std::string text = seed.is_string() ? seed.text() : std::string();
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
      throw_bad(header.line, "seed",
                fmt::format("\"seed\" is the game's seed as a decimal string from \"0\" to \"18446744073709551615\", not {}", seed.shown()));
    }
    config.seed = value;
  }
  if (h.contains("options")) {
    LogValue options = h.at("options");
    if (!options.is_object()) throw_bad(header.line, "options", "\"options\" is an object of option values");
    options.each_member([&](std::string_view option, LogValue value) {
      const std::string name(option);
      if (value.is_bool()) {
        config.options[name] = value.boolean() ? "true" : "false";
      } else if (value.is_integer()) {
        config.options[name] = std::to_string(value.integer());
      } else if (value.is_string()) {
        config.options[name] = value.text();
      } else {
        throw_bad(header.line, "options", fmt::format("option '{}': a value is a number, true/false or a name, not {}", shown(name), value.shown()));
      }
    });
  }
  for (const auto& [name, value] : overrides) {
    const auto it = config.options.find(name);
    if (it != config.options.end() && it->second != value) {
      out.warnings.push_back({"options", fmt::format("--option {}={} overrides the log's {}={}", name, value, name, shown(it->second))});
    }
    config.options[name] = value;
  }
  return out;
}

}  // namespace rulebook::interpreter::detail
