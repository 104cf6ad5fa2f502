// The recorder's answers: a choice completed from a prefix, the cards the table turned up,
// undo, and the log a session leaves (which a later session resumes). recorder.cpp runs the
// rules over them.
#include <algorithm>
#include <cctype>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "log_header.hpp"
#include "log_names.hpp"
#include "log_reader.hpp"
#include "rulebook/grammar/printable.hpp"
#include "rulebook/logs/log.hpp"
#include "rulebook/logs/recorder.hpp"
#include "rulebook/logs/replay.hpp"

namespace rulebook::interpreter {

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(const std::string& s) {
  const std::size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

bool is_number(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

// A log JSON choice as the words of an answer: "7H" -> 7H, [1,3] stays.
std::string unquoted(const std::string& json) {
  return json.size() >= 2 && json.front() == '"' ? json.substr(1, json.size() - 2) : json;
}

}  // namespace

std::optional<RecordSetup> record_setup_of(const std::string& log, std::string& error) {
  // The header as replay reads it (detail::LogJson): one reader of logs, one rule for a key
  // given twice.
  std::istringstream in(log);
  std::string line;
  std::uint32_t number = 0;
  detail::LogJson json;
  while (std::getline(in, line)) {
    ++number;
    const std::string t = trim(line);
    if (t.empty() || t.rfind("//", 0) == 0) continue;
    try {
      const detail::LogValue h = json.parse(t, detail::LogLine{number, 0, 0});
      const std::optional<detail::LogValue> players = h.find("players");
      if (!players || !players->is_integer()) {
        error = "its first line is not a log header with \"players\"";
        return std::nullopt;
      }
      RecordSetup setup;
      setup.players = players->integer();
      if (const std::optional<detail::LogValue> options = h.find("options"); options && options->is_object()) {
        options->each_member([&](std::string_view name, detail::LogValue value) {
          setup.options[std::string(name)] = value.text();
        });
      }
      if (const std::optional<detail::LogValue> names = h.find("names"); names && names->is_array()) {
        names->each([&](detail::LogValue name) { setup.names.push_back(name.text()); });
      }
      h.each_member([&](std::string_view key, detail::LogValue value) {
        if (!detail::is_known_header_key(key)) setup.kept_header.emplace_back(std::string(key), value.dump());
      });
      return setup;
    } catch (const detail::LogError& e) {
      error = fmt::format("line {}: {}", number, e.what());
      return std::nullopt;
    }
  }
  error = "it holds no log header";
  return std::nullopt;
}

Recorder::Recorder(const Machine& machine, const grammar::SourceManager& rule_sources, RecordSetup setup)
    : machine_(machine), rule_sources_(rule_sources) {
  config_.players = setup.players;
  config_.options = std::move(setup.options);
  const State first = machine_.start(config_);  // throws ConfigError; tells the number of seats
  seats_ = first.num_seats;
  config_.players = first.num_players;
  if (!setup.names.empty()) {
    if (setup.names.size() != static_cast<std::size_t>(seats_) && setup.names.size() != static_cast<std::size_t>(first.num_players)) {
      throw ConfigError(fmt::format("--names gives {} name{}: give one per seat ({}) or one per player ({})", setup.names.size(),
                                    setup.names.size() == 1 ? "" : "s", seats_, first.num_players));
    }
    for (const std::string& name : setup.names) {
      if (name.empty() || is_number(name) || name.find_first_of("():,") != std::string::npos || name != trim(name) ||
          grammar::has_control_character(name) || name.size() > detail::kShownChars) {
        throw ConfigError(fmt::format("seat name '{}': a name is not empty, not a number, at most {} bytes, and has no "
                                      "parentheses, colons, commas or control characters",
                                      detail::shown(name), detail::kShownChars));
      }
      // The rule a log's header is read by: a name it refuses made the saved log unreadable
      // to replay and to record itself (the eighth probe).
      const auto seat = static_cast<std::int32_t>(&name - setup.names.data());
      if (const std::string why = detail::reserved_name(name, seat); !why.empty()) {
        throw ConfigError(fmt::format("seat name '{}' {}", detail::shown(name), why));
      }
      if (std::count(setup.names.begin(), setup.names.end(), name) > 1) {
        throw ConfigError(fmt::format("seat name '{}' is given twice", detail::shown(name)));
      }
    }
    names_ = std::move(setup.names);
    // Automated seats left unnamed go by their identity, as in replay's messages.
    for (std::int32_t p = static_cast<std::int32_t>(names_.size()); p < seats_; ++p) names_.push_back(fmt::format("player {}", p));
  }
  kept_header_ = std::move(setup.kept_header);
  rerun();
}

std::string Recorder::who(PlayerId p) const {
  if (p >= 0 && static_cast<std::size_t>(p) < names_.size()) return names_[static_cast<std::size_t>(p)];
  return fmt::format("player {}", p);
}

std::vector<std::string> Recorder::completions(const std::string& prefix) const {
  const std::string want = lower(trim(prefix));
  std::vector<std::string> out;
  for (const std::string& o : question_.options) {
    if (lower(o) == want) return {o};
    if (lower(o).rfind(want, 0) == 0) out.push_back(o);
  }
  return out;
}

std::string Recorder::answer(const std::string& text) {
  switch (question_.kind) {
    case Question::Kind::kMove: return answer_move(trim(text));
    case Question::Kind::kReveal: return answer_reveal(text, true);
    case Question::Kind::kOver: return "the game is over: nothing more to record";
  }
  return {};
}

std::string Recorder::answer_move(const std::string& text) {
  if (text.empty()) return "type a choice (? lists them)";
  std::optional<std::size_t> picked;
  for (std::size_t i = 0; i < legal_json_.size() && !picked; ++i) {
    if (lower(text) == lower(unquoted(legal_json_[i]))) picked = i;
  }
  if (!picked) {
    const std::vector<std::string> matches = completions(text);
    if (matches.size() > 1) return fmt::format("'{}' is the start of {}: type more of it", detail::shown(text), fmt::join(matches, ", "));
    if (matches.size() == 1) {
      picked = static_cast<std::size_t>(std::find(question_.options.begin(), question_.options.end(), matches.front()) -
                                        question_.options.begin());
    }
  }
  if (!picked) {
    // As the log would have it: a number, a bool, a list, a seat's name, else a name.
    std::string json;
    const auto seat = std::find(names_.begin(), names_.end(), text);
    if (is_number(text) || text == "true" || text == "false" || text.front() == '[') {
      json = text;
    } else if (seat != names_.end()) {
      json = std::to_string(seat - names_.begin());
    } else {
      json = nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    return explain_illegal(json);
  }
  return take(Entry{legal_json_[*picked], {}, {}});
}

std::string Recorder::explain_illegal(const std::string& json) const {
  // The replay's own words: the log so far and this move, replayed.
  const PlayerId player = state_.decision->player;
  grammar::SourceManager sources = rule_sources_;
  std::string body = fmt::format("\"choice\":{}", json);
  if (state_.decision->mixed >= 0) {
    // A move of a decision with alternatives is typed `NAME` or `NAME ELEMENT`.
    std::string text = json;
    try {
      text = nlohmann::json::parse(json).get<std::string>();
    } catch (const std::exception&) {
    }
    const std::size_t space = text.find(' ');
    const std::string name = text.substr(0, space);
    std::string element = "null";
    if (space != std::string::npos) {
      const std::string rest = trim(text.substr(space + 1));
      const auto seat = std::find(names_.begin(), names_.end(), rest);
      element = is_number(rest) || rest == "true" || rest == "false" || (!rest.empty() && rest.front() == '[') ? rest
                : seat != names_.end() ? std::to_string(seat - names_.begin())
                                       : nlohmann::json(rest).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    body = fmt::format("\"alternative\":{},\"choice\":{}",
                       nlohmann::json(name).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), element);
  }
  const grammar::FileId file = sources.add("(this move)", log_text() + fmt::format("{{\"move\":{{{},\"player\":{}}}}}\n", body, player));
  ReplayOptions options;
  options.partial = true;
  const ReplayResult result = replay(machine_, sources, file, options);
  for (const grammar::Diagnostic& d : result.diagnostics.items()) {
    if (d.severity != grammar::Severity::kError) continue;
    std::string out = d.message;
    for (const grammar::DiagnosticNote& n : d.notes) {
      if (n.message.rfind("the choice is asked here", 0) != 0) out += "\n  " + n.message;
    }
    return out;
  }
  return fmt::format("'{}' is not one of the choices (? lists them)", detail::shown(unquoted(json)));
}

std::string Recorder::answer_reveal(const std::string& text, bool typed) {
  std::vector<std::string> words;
  std::string word;
  std::istringstream in(text);
  while (in >> word) {
    std::size_t from = 0;
    for (std::size_t comma = word.find(','); ; comma = word.find(',', from)) {
      const std::string part = word.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
      if (!part.empty()) words.push_back(part);
      if (comma == std::string::npos) break;
      from = comma + 1;
    }
  }
  const std::size_t want = question_.count;
  if (words.size() != want) {
    return fmt::format("{} card{} came into {}: name {}, not {}", want, want == 1 ? "" : "s", question_.zone, want == 1 ? "it" : "all of them",
                       words.size());
  }
  std::vector<Pin> pins;
  std::vector<CardId> named;
  for (std::size_t i = 0; i < words.size(); ++i) {
    CardId card = -1;
    for (std::size_t c = 0; c < state_.cards->size() && card < 0; ++c) {
      if (lower(machine_.card_name(state_, static_cast<CardId>(c))) == lower(words[i])) card = static_cast<CardId>(c);
    }
    if (card < 0) {
      const std::vector<std::string> matches = completions(words[i]);
      if (matches.size() > 1) return fmt::format("'{}' is the start of {}: type more of it", detail::shown(words[i]), fmt::join(matches, ", "));
      if (matches.empty()) {
        detail::LogNames names(machine_, seats_, names_);
        // `?` is the prompt's word: a `// seen` note of a log read again gets the hint alone.
        return fmt::format("no card '{}' in this game{} (cards are named like {}{})", detail::shown(words[i]),
                           names.card_hint(state_, words[i]), machine_.card_name(state_, 0),
                           typed ? "; ? lists the cards it may be" : "");
      }
      card = machine_.card_by_name(state_, matches.front());
    }
    const std::string name = machine_.card_name(state_, card);
    if (std::find(named.begin(), named.end(), card) != named.end()) return fmt::format("{} is named twice", name);
    if (std::find(reveal_candidates_.begin(), reveal_candidates_.end(), card) == reveal_candidates_.end()) {
      const auto c = static_cast<std::size_t>(card);
      const detail::LogNames names(machine_, seats_, names_);
      if (c < card_group_.size() && card_group_[c] == static_cast<std::int64_t>(reveal_shuffle_)) {
        return fmt::format("{} cannot be one of them: it has been seen already, and is in {}", name, names.zone_text(state_.card_zone[c]));
      }
      return fmt::format("{} cannot be one of them: it was not in {} when it was shuffled (it is in {})", name, question_.from,
                         names.zone_text(state_.card_zone[c]));
    }
    named.push_back(card);
    pins.push_back(Pin{reveal_shuffle_, reveal_positions_[i], card});
  }
  return take(Entry{"", std::move(pins), {}});
}

std::string Recorder::take(Entry entry) {
  entry.notes = std::move(pending_notes_);
  pending_notes_.clear();
  entries_.push_back(std::move(entry));
  try {
    rerun();
  } catch (const std::runtime_error& e) {
    // The answer changed a card the rules had already looked at unseen (recording.md).
    pending_notes_ = std::move(entries_.back().notes);
    entries_.pop_back();
    rerun();
    return e.what();
  }
  return {};
}

bool Recorder::undo() {
  if (entries_.empty()) return false;
  // The notes written before the answer taken back stay, before the next one (undo dropped
  // them: the ninth probe).
  std::vector<std::string> notes = std::move(entries_.back().notes);
  notes.insert(notes.end(), pending_notes_.begin(), pending_notes_.end());
  pending_notes_ = std::move(notes);
  entries_.pop_back();
  rerun();
  return true;
}

std::string Recorder::log_text() const {
  std::string notes;
  for (const std::string& note : pending_notes_) notes += note + "\n";
  // The header as the LogWriter wrote it, with the seats' names.
  const std::size_t end = log_.find('\n');
  if ((names_.empty() && kept_header_.empty()) || end == std::string::npos) return log_ + notes;
  nlohmann::json header = nlohmann::json::parse(log_.substr(0, end));
  if (!names_.empty()) header["names"] = names_;
  for (const auto& [key, value] : kept_header_) header[key] = nlohmann::json::parse(value);
  return header.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + log_.substr(end) + notes;
}

namespace {

// `//seen`, `//  Seen:` and the like: a `// seen` note written another way.
bool is_seen_note_misspelt(const std::string& comment) {
  if (comment.rfind("// seen ", 0) == 0) return false;
  const std::string rest = lower(trim(comment.substr(2)));
  return rest.rfind("seen", 0) == 0 && (rest.size() == 4 || rest[4] == ' ' || rest[4] == ':' || rest[4] == '\t');
}

}  // namespace

std::string Recorder::resume(const std::string& log) {
  std::istringstream in(log);
  std::string line;
  std::size_t number = 0;
  bool header = true;
  detail::LogJson json;
  while (std::getline(in, line)) {
    ++number;
    const std::string t = trim(line);
    std::string problem;
    if (t.rfind("// seen ", 0) == 0) {
      const std::size_t colon = t.find(':', 8);
      const std::string zone = colon == std::string::npos ? std::string() : trim(t.substr(8, colon - 8));
      const std::string cards = colon == std::string::npos ? std::string() : trim(t.substr(colon + 1));
      // A zone by either of its log names: `hand(Ann)` or `hand(0)` (the ninth probe).
      const detail::LogNames names(machine_, seats_, names_);
      if (zone.empty() || cards.empty()) {
        problem = "a `// seen` note is written `// seen ZONE: CARDS`, and this one names no zone or no card";
      } else if (question_.kind != Question::Kind::kReveal) {
        problem = "the log notes cards seen here, but the rules do not show any new card here";
      } else if (names.zone_named(zone) < 0 || names.zone_text(names.zone_named(zone)) != question_.zone) {
        problem = fmt::format("the log notes cards seen in {}, but the rules show new cards in {} here", detail::shown(zone), question_.zone);
      } else {
        problem = answer_reveal(cards, false);
      }
    } else if (t.rfind("//", 0) == 0 && is_seen_note_misspelt(t)) {
      // Read as a comment, it dropped the cards it names without a word (the eighth probe).
      problem = fmt::format("'{}' looks like a note of cards seen, which is written `// seen ZONE: CARDS`",
                            detail::shown(t));
    } else if (t.rfind("//", 0) == 0) {
      pending_notes_.push_back(t);  // a person's comment: kept where it was
      continue;
    } else if (t.empty()) {
      continue;
    } else {
      std::optional<detail::LogValue> j;
      try {
        j = json.parse(t, detail::LogLine{static_cast<std::uint32_t>(number), 0, 0});
      } catch (const detail::LogError& e) {
        problem = e.what();
      }
      const std::optional<detail::LogValue> move = j ? j->find("move") : std::nullopt;
      const std::optional<detail::LogValue> element = move ? move->find("choice") : std::nullopt;
      if (!j) {
        // the reader's message is the problem
      } else if (!j->is_object()) {
        problem = "not a JSON object";
      } else if (header) {
        header = false;
        continue;
      } else if (element) {
        if (question_.kind != Question::Kind::kMove) {
          problem = question_.kind == Question::Kind::kReveal
                        ? fmt::format("a move, but {} card(s) came into {} here and the log does not say which", question_.count, question_.zone)
                        : std::string("a move after the game ended");
        } else {
          std::string choice = element->dump();
          auto it = std::find(legal_json_.begin(), legal_json_.end(), choice);
          if (state_.decision && state_.decision->mixed >= 0) {
            // A move of a decision with alternatives: found by its alternative and its choice.
            const Decision& d = *state_.decision;
            const std::optional<detail::LogValue> alternative = move->find("alternative");
            const std::string name = alternative && alternative->is_string() ? std::string(alternative->string()) : std::string();
            it = legal_json_.end();
            for (std::size_t i = 0; i < d.options.size() && it == legal_json_.end(); ++i) {
              const auto& alt = machine_.ir().mixed_choices[static_cast<std::size_t>(d.mixed)].alternatives[static_cast<std::size_t>(d.alternatives[i])];
              if (alt.name == name && choice_json(machine_, state_, d.options[i]) == choice) {
                it = legal_json_.begin() + static_cast<std::ptrdiff_t>(i);
              }
            }
            const std::string shown = element->is_string() ? std::string(element->string()) : choice;
            choice = nlohmann::json(element->is_null() ? name : name + " " + shown)
                         .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
          }
          if (it == legal_json_.end()) {
            problem = explain_illegal(choice);
          } else {
            problem = take(Entry{*it, {}, {}});
          }
        }
      }
      // Shuffles, rounds, automated decisions and the end follow from the answers.
    }
    if (!problem.empty()) return fmt::format("line {}: {}", number, problem);
  }
  return {};
}

}  // namespace rulebook::interpreter
