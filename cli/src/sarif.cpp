// SARIF 2.1.0 output.
#include "sarif.hpp"

#include <fmt/format.h>

namespace rulebook::cli {

nlohmann::json sarif_log(const std::string& tool_name, nlohmann::json rules, nlohmann::json results) {
  nlohmann::json driver = {{"name", tool_name}, {"informationUri", "docs/"}, {"rules", std::move(rules)}};
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
          {"version", "2.1.0"},
          {"runs", nlohmann::json::array({{{"tool", {{"driver", std::move(driver)}}}, {"results", std::move(results)}}})}};
}

// Every byte but the unreserved ones and `/` is percent-encoded (`:` too, which in a first
// segment would be read as a scheme).
std::string uri_reference(const std::string& path) {
  std::string out;
  for (const char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
        c == '~' || c == '/') {
      out += ch;
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

namespace {

// A SARIF location; a span with no file (a message about the whole run) has none.
nlohmann::json location(const grammar::SourceSpan& span, const grammar::SourceManager& sources,
                        const std::string& message) {
  nlohmann::json loc = nlohmann::json::object();
  if (span.valid() && span.file < sources.size()) {
    loc["physicalLocation"] = {{"artifactLocation", {{"uri", uri_reference(sources.file(span.file).path)}}},
                               {"region",
                                {{"startLine", span.line},
                                 {"startColumn", span.column},
                                 {"endLine", span.end_line},
                                 {"endColumn", span.end_column}}}};
  }
  if (!message.empty()) loc["message"] = {{"text", message}};
  return loc;
}

}  // namespace

nlohmann::json diagnostics_sarif(const grammar::Diagnostics& diagnostics, const grammar::SourceManager& sources) {
  nlohmann::json rules = nlohmann::json::array();
  for (const grammar::CodeInfo& c : grammar::all_codes()) {
    rules.push_back({{"id", c.id},
                     {"name", c.title},
                     {"shortDescription", {{"text", c.title}}},
                     {"fullDescription", {{"text", c.explanation}}},
                     {"help", {{"text", fmt::format("rulebook explain {}", c.id)}}}});
  }
  nlohmann::json results = nlohmann::json::array();
  for (const grammar::Diagnostic& d : diagnostics.items()) {
    nlohmann::json result = {{"ruleId", grammar::info(d.code).id},
                             {"level", d.severity == grammar::Severity::kWarning ? "warning" : "error"},
                             {"message", {{"text", d.message}}}};
    nlohmann::json at = location(d.span, sources, "");
    result["locations"] = at.empty() ? nlohmann::json::array() : nlohmann::json::array({at});
    nlohmann::json related = nlohmann::json::array();
    for (const grammar::DiagnosticNote& note : d.notes) {
      nlohmann::json n = location(note.span, sources, note.message);
      n["id"] = related.size();
      related.push_back(std::move(n));
    }
    if (!related.empty()) result["relatedLocations"] = std::move(related);
    results.push_back(std::move(result));
  }
  return sarif_log("rulebook check", std::move(rules), std::move(results));
}

}  // namespace rulebook::cli
