// The statistics file of `simulate --stats` and `merge --stats` ("rulebook-stats": 3): its
// JSON form, and reading it back. A file read back is untrusted (it may be edited, truncated
// or made up), so every count is checked against the others before `merge` adds it or the
// report divides by it.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "rulebook/stats/simulation_stats.hpp"

namespace rulebook::stats {

// Version 4 adds "payoffs" (seeded as version 3, so the two merge). Version 3 counts "reached" and "fired" apart (before, "fired" counted starts) and its games
// are seeded apart from earlier versions'. Version 2 lists only the first kCappedListed
// capped games; version 1 listed all of them.
inline constexpr int kStatsVersion = 4;  // 4: payoffs

// The saved form, always of version kStatsVersion.
nlohmann::json stats_to_json(const SimulationStats& stats);

// The text of the file: stats_to_json, one space of indent, a final newline. Bytes that are
// not UTF-8 (a file name is any bytes) become U+FFFD instead of failing the write.
std::string stats_file_text(const SimulationStats& stats);

// Reads a statistics file, version 1 to 3, checking that every count fits the others: none
// negative, wins within the finished games, histograms that count every finished game.
// A file of version 1 or 2 reads its "fired" (rule starts) into `reached` and leaves `fired`
// empty; `version` is the file's. Throws StatsError.
SimulationStats stats_from_json(const nlohmann::json& j);

// The largest statistics file read. A real one holds a few kilobytes to a few megabytes (a
// count and a place per labelled rule); reading takes about 20 times the file's size as a
// JSON value, and a 180 MB file ran out of memory inside the JSON library (the seventh probe).
inline constexpr std::size_t kMaxStatsFileBytes = std::size_t{64} << 20;

// stats_from_json of a file's text; text that is not JSON, or a number beyond a double,
// throws StatsError("not JSON: ...").
SimulationStats stats_from_text(std::string_view text);

}  // namespace rulebook::stats
