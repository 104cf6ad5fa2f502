// Parsing: PEGTL builds a parse tree of the selected rules (nodes of failed alternatives are
// dropped, so backtracking is safe), then one pass turns the tree into the typed AST.
// Syntax errors are recorded by `recover<>` and parsing resumes at the next statement.
#include "rulebook/grammar/parse.hpp"

#include <algorithm>
#include <span>
#include <utility>

#include <fmt/format.h>
#include <tao/pegtl/contrib/analyze.hpp>
#include <tao/pegtl/contrib/parse_tree.hpp>

#include "build_ast.hpp"
#include "errors.hpp"
#include "grammar.hpp"

namespace rulebook::grammar {

namespace pegtl = tao::pegtl;
using Node = pegtl::parse_tree::node;
using detail::Builder;
using detail::is_ident_char;

namespace {

struct TooManyErrors {};

// Syntax errors found while parsing one file.
struct ErrorSink {
  const SourceFile* file = nullptr;
  std::size_t depth = 0;  // nested<> rules open now
  Code next_code = Code::kSyntax;  // the code of the parse_error being thrown
  struct Error {
    std::size_t offset;
    std::string message;
    Code code;
  };
  std::vector<Error> errors;

  void add(std::size_t offset, std::string message) {
    errors.push_back(Error{offset, std::move(message), std::exchange(next_code, Code::kSyntax)});
  }
};

// Raises with the rule's message; a missing message is a compile-time error.
template <typename Rule>
struct control : pegtl::normal<Rule> {
  template <typename ParseInput, typename... States>
  [[noreturn]] static void raise(const ParseInput& in, States&&... /*unused*/) {
    static_assert(peg::error_message<Rule> != nullptr,
                  "every rule inside must<> needs a message in errors.hpp");
    throw pegtl::parse_error(peg::error_message<Rule>, in);
  }
};

// The token that starts at `offset`, for "but got '...'"; empty at the end of the file.
std::string_view token_at(std::string_view text, std::size_t offset) {
  if (offset >= text.size()) return {};
  std::size_t end = offset;
  if (is_ident_char(text[offset])) {
    while (end < text.size() && is_ident_char(text[end]) && end - offset < 24) ++end;
  } else if (text[offset] == '"') {
    end = offset + 1;
    while (end < text.size() && text[end] != '"' && text[end] != '\n' && end - offset < 24) ++end;
    if (end < text.size() && text[end] == '"') ++end;
  } else {
    static constexpr std::string_view kTwoChar[] = {":=", "==", "!=", "<=", ">=", ".."};
    end = offset + 1;
    for (std::string_view op : kTwoChar) {
      if (text.substr(offset, 2) == op) end = offset + 2;
    }
  }
  // A character of several bytes is quoted whole: "got '\xC3'" named a byte of 'é' (the
  // seventh probe). The text is valid UTF-8 here (the reader checked it).
  while (end < text.size() && end - offset < 28 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) ++end;
  return text.substr(offset, end - offset);
}

// "'é' (U+00E9)": a single character that is not ASCII is named by its code point too, so that
// one that looks like another, or like nothing (a no-break space, a byte-order mark inside
// the file), can be told.
std::string describe_token(std::string_view token) {
  if (token.empty()) return "end of file";
  if (token[0] == '\n' || token[0] == '\r') return "end of line";
  const auto lead = static_cast<unsigned char>(token[0]);
  const std::size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
  if (lead >= 0xC0 && token.size() == length) {
    std::uint32_t code = lead & (0x7FU >> length);
    for (std::size_t i = 1; i < length; ++i) code = (code << 6) | (static_cast<unsigned char>(token[i]) & 0x3FU);
    return fmt::format("'{}' (U+{:04X})", token, code);
  }
  return fmt::format("'{}'", token);
}

const std::string_view kTopLevelWords[] = {
    "players", "seats", "cards", "enum", "zone", "var", "option", "def", "score",
    "payoff", "setup", "round", "policy", "invariant", "terminates", "override"};
const std::string_view kStatementWords[] = {
    "rule", "phase", "repeat", "while", "until", "for", "if", "simultaneous", "choose",
    "let", "move", "deal", "shuffle", "flip", "set", "add", "swap", "end"};

bool starts_with_word(std::string_view text, std::size_t offset,
                      std::span<const std::string_view> words) {
  std::size_t end = offset;
  while (end < text.size() && is_ident_char(text[end])) ++end;
  const std::string_view word = text.substr(offset, end - offset);
  return std::find(words.begin(), words.end(), word) != words.end();
}

// From the error at `offset`, finds where parsing can resume: the start of a line that
// begins a statement (or, at top level, a declaration in column 1), or a '}' that closes the
// enclosing block. Braces opened by the broken statement are skipped with it.
std::size_t find_resume_point(std::string_view text, std::size_t start_of_attempt,
                              std::size_t offset, bool top_level) {
  auto is_resume_point = [&](std::size_t pos, int depth) {
    if (pos >= text.size()) return true;
    if (depth != 0) return false;
    const bool column_one = pos == 0 || text[pos - 1] == '\n';
    if (column_one && starts_with_word(text, pos, kTopLevelWords)) return true;
    if (top_level) return false;
    if (text[pos] == '}') return true;
    return starts_with_word(text, pos, kStatementWords);
  };
  // An error exactly at a resume point past the attempt's start resumes there.
  if (offset > start_of_attempt) {
    std::size_t pos = offset;
    if (is_resume_point(pos, 0) && (pos == 0 || text[pos - 1] == '\n' || text[pos] == '}')) {
      return pos;
    }
  }
  int depth = 0;
  std::size_t pos = offset;
  bool in_string = false;
  while (pos < text.size()) {
    const char c = text[pos];
    if (c == '\n') {
      in_string = false;
      ++pos;
      std::size_t first = pos;
      while (first < text.size() && (text[first] == ' ' || text[first] == '\t')) ++first;
      if (first >= text.size()) return text.size();
      if (text[first] == '}' && depth > 0) continue;  // counted below
      if (is_resume_point(first, depth)) return first;
      continue;
    }
    if (in_string) {
      if (c == '\\') ++pos;
      else if (c == '"') in_string = false;
      ++pos;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '#') {
      while (pos < text.size() && text[pos] != '\n') ++pos;
      continue;
    } else if (c == '{') ++depth;
    else if (c == '}') {
      if (depth == 0 && !top_level && pos > offset) return pos;
      if (depth > 0) --depth;
    }
    ++pos;
  }
  return text.size();
}

// The parse tree adds its own state; ours is found by type, wherever it is.
template <typename... States>
ErrorSink& sink_of(States&&... st) {
  ErrorSink* found = nullptr;
  (
      [&](auto& s) {
        if constexpr (std::is_same_v<std::decay_t<decltype(s)>, ErrorSink>) found = &s;
      }(st),
      ...);
  return *found;
}

}  // namespace

}  // namespace rulebook::grammar

namespace rulebook::grammar::peg {

template <typename R, bool TopLevel>
template <pegtl::apply_mode A, pegtl::rewind_mode M, template <typename...> class Action,
          template <typename...> class Control, typename ParseInput, typename... States>
bool recover<R, TopLevel>::match(ParseInput& in, States&&... st) {
  const std::size_t start = in.byte();
  try {
    return Control<R>::template match<A, M, Action, Control>(in, st...);
  } catch (const pegtl::parse_error& e) {
    ErrorSink& sink = rulebook::grammar::sink_of(st...);
    const std::size_t offset = e.positions().empty() ? in.byte() : e.positions().front().byte;
    sink.add(offset, std::string(e.message()));
    if (sink.errors.size() >= rulebook::grammar::kMaxSyntaxErrors) throw rulebook::grammar::TooManyErrors{};
    std::size_t resume = rulebook::grammar::find_resume_point(
        std::string_view(sink.file->text), start, offset, TopLevel);
    if (resume <= in.byte()) resume = in.byte() + 1;  // always make progress
    const std::size_t available = in.size();
    in.bump(std::min(resume - in.byte(), available));
    // Skip layout before the next statement, as the failed statement's tokens would have.
    pegtl::parse<star<sor<pegtl::ascii::space, comment>>>(in);
    return true;
  }
}

template <typename R>
template <pegtl::apply_mode A, pegtl::rewind_mode M, template <typename...> class Action,
          template <typename...> class Control, typename ParseInput, typename... States>
bool nested<R>::match(ParseInput& in, States&&... st) {
  ErrorSink& sink = rulebook::grammar::sink_of(st...);
  if (sink.depth >= rulebook::grammar::kMaxNesting) {
    sink.next_code = rulebook::grammar::Code::kNestingTooDeep;
    throw pegtl::parse_error(fmt::format("nesting deeper than {} levels", rulebook::grammar::kMaxNesting), in);
  }
  struct Leave {
    std::size_t& depth;
    ~Leave() { --depth; }
  } leave{++sink.depth};
  return Control<R>::template match<A, M, Action, Control>(in, st...);
}

template <pegtl::apply_mode A, pegtl::rewind_mode M, template <typename...> class Action,
          template <typename...> class Control, typename ParseInput, typename... States>
bool else_if_level::match(ParseInput& in, States&&... st) {
  ErrorSink& sink = rulebook::grammar::sink_of(st...);
  // Room for the branch's condition too (an expression takes two levels, not_expr and
  // unary_expr), so that a long chain fails here, with this message.
  if (sink.depth + 2 >= rulebook::grammar::kMaxNesting) {
    sink.next_code = rulebook::grammar::Code::kNestingTooDeep;
    throw pegtl::parse_error(fmt::format("nesting deeper than {} levels: each 'else if' is a level, as "
                                         "'else {{ if ... }}' would be",
                                         rulebook::grammar::kMaxNesting),
                             in);
  }
  ++sink.depth;  // restored by the keeps_depth<> around the if statement
  return true;
}

template <typename R>
template <pegtl::apply_mode A, pegtl::rewind_mode M, template <typename...> class Action,
          template <typename...> class Control, typename ParseInput, typename... States>
bool keeps_depth<R>::match(ParseInput& in, States&&... st) {
  ErrorSink& sink = rulebook::grammar::sink_of(st...);
  struct Restore {
    std::size_t& depth;
    std::size_t before;
    ~Restore() { depth = before; }
  } restore{sink.depth, sink.depth};
  return Control<R>::template match<A, M, Action, Control>(in, st...);
}

}  // namespace rulebook::grammar::peg

namespace rulebook::grammar {

namespace {

// ---- parse-tree selection ----------------------------------------------------------------

template <typename Rule>
using selector = pegtl::parse_tree::selector<
    Rule,
    pegtl::parse_tree::store_content::on<
        peg::ident, peg::integer, peg::string_body, peg::callee, peg::quant_kind,
        peg::extremum_kind, peg::zone_shape, peg::visibility>,
    pegtl::parse_tree::store_content::on<
        // operators
        peg::op_or, peg::op_and, peg::op_not, peg::op_eq, peg::op_ne, peg::op_le, peg::op_ge,
        peg::op_lt, peg::op_gt, peg::op_not_in, peg::op_in, peg::op_plus, peg::op_minus,
        peg::op_times, peg::op_divide, peg::op_modulo,
        // expressions
        peg::negate_expr, peg::true_lit, peg::false_lit, peg::none_lit, peg::players_lit,
        peg::seat_lit, peg::comprehension, peg::set_literal, peg::quantifier, peg::key_list,
        peg::extremum, peg::extremum_value, peg::order_cw, peg::order_ccw, peg::order_up, peg::order_down,
        peg::first_expr, peg::conditional, peg::call, peg::name_ref,
        // types
        peg::type_int, peg::type_bool, peg::type_player, peg::type_card, peg::type_set,
        peg::type_named,
        // statements
        peg::block, peg::face_up, peg::face_down, peg::at_top, peg::at_bottom, peg::rule_stmt,
        peg::phase_stmt, peg::repeat_stmt, peg::while_stmt, peg::until_stmt, peg::for_stmt,
        peg::else_if, peg::else_block, peg::if_stmt, peg::simultaneous_stmt, peg::choose_stmt, peg::at_random,
        peg::alt_name, peg::alt_var, peg::alt_guard, peg::alternative, peg::mixed_choose_stmt,
        peg::let_stmt, peg::move_stmt, peg::deal_stmt, peg::shuffle_stmt, peg::flip_stmt,
        peg::set_stmt, peg::add_stmt, peg::swap_stmt, peg::end_stmt,
        // declarations
        peg::players_default, peg::players_decl, peg::seats_decl, peg::standard52_item, peg::jokers_item,
        peg::kind_item, peg::cards_decl, peg::enum_decl, peg::player_param, peg::zone_decl,
        peg::per_round, peg::var_decl, peg::option_range, peg::option_doc, peg::option_decl,
        peg::param, peg::params, peg::result_type, peg::def_decl, peg::score_decl,
        peg::payoff_over, peg::payoff_ratio, peg::payoff_cond, peg::payoff_decl,
        peg::setup_decl, peg::round_decl, peg::policy_entry, peg::policy_decl,
        peg::invariant_decl, peg::terminates_game, peg::terminates_round, peg::terminates_decl,
        peg::override_option, peg::override_decl, peg::title, peg::base_path,
        peg::game_header, peg::variant_header>,
    pegtl::parse_tree::fold_one::on<peg::or_expr, peg::and_expr, peg::not_expr, peg::cmp_expr,
                                    peg::add_expr, peg::mul_expr>>;


}  // namespace

std::vector<Comment> scan_comments(const SourceFile& file) {
  std::vector<Comment> out;
  const std::string& text = file.text;
  bool in_string = false;
  std::uint32_t line = 1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      in_string = false;
    } else if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '#') {
      std::size_t end = i;
      while (end < text.size() && text[end] != '\n') ++end;
      std::size_t trimmed_end = end;
      // Carriage returns and blanks at the end are not the comment's: `fmt` writes a line
      // break after it, so one kept `\r` of `\r\r\n` would go on the next pass (not idempotent).
      while (trimmed_end > i + 1 && (text[trimmed_end - 1] == '\r' || text[trimmed_end - 1] == ' ' || text[trimmed_end - 1] == '\t')) {
        --trimmed_end;
      }
      out.push_back(Comment{i, trimmed_end, line});
      i = end - 1;
    }
  }
  return out;
}

ast::RulesFile parse_rules(const SourceManager& sources, FileId id, Diagnostics& diagnostics) {
  const SourceFile& file = sources.file(id);
  if (file.encoding_error) {
    // Parsing would only add errors about the '?' put in place of the bad bytes.
    Builder builder(file, id, diagnostics);
    const std::size_t at = file.encoding_error->offset;
    diagnostics.error(Code::kNotUtf8, builder.span_of(at, at + 1),
                      fmt::format("rule files are UTF-8 text, but here is the byte {}, which is not",
                                  file.encoding_error->bytes));
    return ast::RulesFile{};
  }
  pegtl::memory_input in(file.text.data(), file.text.size(), file.path);
  ErrorSink sink;
  sink.file = &file;
  std::unique_ptr<Node> root;
  try {
    root = pegtl::parse_tree::parse<peg::file, Node, selector, pegtl::nothing, control>(in, sink);
  } catch (const pegtl::parse_error& e) {
    const std::size_t offset = e.positions().empty() ? 0 : e.positions().front().byte;
    sink.add(offset, std::string(e.message()));
  } catch (const TooManyErrors&) {
    // Reported below, after the errors so far.
  }
  Builder builder(file, id, diagnostics);
  for (const ErrorSink::Error& error : sink.errors) {
    const std::string_view got = token_at(file.text, error.offset);
    SourceSpan s = builder.span_of(error.offset, error.offset + got.size());
    diagnostics.error(error.code, s, fmt::format("{}, but got {}", error.message, describe_token(got)));
  }
  if (sink.errors.size() >= kMaxSyntaxErrors) {
    diagnostics.error(Code::kTooManySyntaxErrors, SourceSpan{}, fmt::format("{}: too many syntax errors, stopping", file.path));
  }
  if (!root) return ast::RulesFile{};
  return builder.file(*root);
}

bool starts_like_rule_file(std::string_view text) {
  using starts = peg::seq<peg::opt<peg::byte_order_mark>, peg::sp, peg::sor<peg::kw_game, peg::kw_variant>>;
  pegtl::memory_input in(text.data(), text.size(), "");
  try {
    return pegtl::parse<starts>(in);
  } catch (const pegtl::parse_error&) {
    return false;
  }
}

std::size_t analyze_grammar() { return pegtl::analyze<peg::file>(0); }

}  // namespace rulebook::grammar
