// The rules language as a PEG: rules only, one line each. Actions (the parse-tree
// selection and the AST builder) live in parse.cpp, error messages in errors.hpp.
//
// Conventions: every token consumes the whitespace and comments after it (`sp`), so
// `must<token>` fails exactly at the offending token and the message can say what was
// there. Statements and declarations start with a keyword; keywords are never names.
#pragma once

#include <tao/pegtl.hpp>
#include <tao/pegtl/contrib/analyze_traits.hpp>

namespace rulebook::grammar::peg {

namespace pegtl = tao::pegtl;
using pegtl::eof;
using pegtl::eolf;
using pegtl::must;
using pegtl::not_at;
using pegtl::one;
using pegtl::opt;
using pegtl::plus;
using pegtl::seq;
using pegtl::sor;
using pegtl::star;
using pegtl::until;

// ---- lexical -----------------------------------------------------------------------------

struct comment : seq<one<'#'>, until<eolf>> {};                 // to the end of the line
struct sp : star<sor<pegtl::ascii::space, comment>> {};         // layout between tokens

template <typename Raw>
struct token : seq<Raw, sp> {};

#define RULEBOOK_KEYWORD(word) \
  struct kw_##word : token<TAO_PEGTL_KEYWORD(#word)> {}

RULEBOOK_KEYWORD(add);        RULEBOOK_KEYWORD(all);        RULEBOOK_KEYWORD(and);
RULEBOOK_KEYWORD(at);         RULEBOOK_KEYWORD(bool);       RULEBOOK_KEYWORD(bottom);
RULEBOOK_KEYWORD(by);         RULEBOOK_KEYWORD(card);       RULEBOOK_KEYWORD(cards);
RULEBOOK_KEYWORD(choose);     RULEBOOK_KEYWORD(clockwise);  RULEBOOK_KEYWORD(count);
RULEBOOK_KEYWORD(counterclockwise);                         RULEBOOK_KEYWORD(deal);
RULEBOOK_KEYWORD(def);        RULEBOOK_KEYWORD(down);       RULEBOOK_KEYWORD(each);
RULEBOOK_KEYWORD(else);       RULEBOOK_KEYWORD(end);        RULEBOOK_KEYWORD(enum);
RULEBOOK_KEYWORD(exists);     RULEBOOK_KEYWORD(face);       RULEBOOK_KEYWORD(false);
RULEBOOK_KEYWORD(first);      RULEBOOK_KEYWORD(flip);       RULEBOOK_KEYWORD(for);
RULEBOOK_KEYWORD(from);       RULEBOOK_KEYWORD(game);       RULEBOOK_KEYWORD(hidden);
RULEBOOK_KEYWORD(if);         RULEBOOK_KEYWORD(in);         RULEBOOK_KEYWORD(int);
RULEBOOK_KEYWORD(invariant);  RULEBOOK_KEYWORD(jokers);     RULEBOOK_KEYWORD(let);
RULEBOOK_KEYWORD(max);        RULEBOOK_KEYWORD(min);        RULEBOOK_KEYWORD(move);
RULEBOOK_KEYWORD(none);       RULEBOOK_KEYWORD(not);        RULEBOOK_KEYWORD(of);
RULEBOOK_KEYWORD(option);     RULEBOOK_KEYWORD(or);         RULEBOOK_KEYWORD(over);
RULEBOOK_KEYWORD(override);
RULEBOOK_KEYWORD(owner);      RULEBOOK_KEYWORD(payoff);     RULEBOOK_KEYWORD(per);        RULEBOOK_KEYWORD(phase);
RULEBOOK_KEYWORD(pile);       RULEBOOK_KEYWORD(player);     RULEBOOK_KEYWORD(players);
RULEBOOK_KEYWORD(policy);     RULEBOOK_KEYWORD(public);     RULEBOOK_KEYWORD(random);     RULEBOOK_KEYWORD(repeat);
RULEBOOK_KEYWORD(round);      RULEBOOK_KEYWORD(rule);       RULEBOOK_KEYWORD(score);
RULEBOOK_KEYWORD(seat);       RULEBOOK_KEYWORD(seats);      RULEBOOK_KEYWORD(set);
RULEBOOK_KEYWORD(setup);      RULEBOOK_KEYWORD(shuffle);    RULEBOOK_KEYWORD(simultaneous);
RULEBOOK_KEYWORD(standard52); RULEBOOK_KEYWORD(sum);        RULEBOOK_KEYWORD(swap);
RULEBOOK_KEYWORD(terminates); RULEBOOK_KEYWORD(then);       RULEBOOK_KEYWORD(to);
RULEBOOK_KEYWORD(top);        RULEBOOK_KEYWORD(true);       RULEBOOK_KEYWORD(until);
RULEBOOK_KEYWORD(up);         RULEBOOK_KEYWORD(var);        RULEBOOK_KEYWORD(variant);
RULEBOOK_KEYWORD(where);      RULEBOOK_KEYWORD(while);      RULEBOOK_KEYWORD(winners);
RULEBOOK_KEYWORD(zone);

#undef RULEBOOK_KEYWORD

// Any reserved word, as a whole word: used to keep keywords out of names.
struct reserved
    : sor<TAO_PEGTL_KEYWORD("add"), TAO_PEGTL_KEYWORD("all"), TAO_PEGTL_KEYWORD("and"),
          TAO_PEGTL_KEYWORD("at"), TAO_PEGTL_KEYWORD("bool"), TAO_PEGTL_KEYWORD("bottom"),
          TAO_PEGTL_KEYWORD("by"), TAO_PEGTL_KEYWORD("card"), TAO_PEGTL_KEYWORD("cards"),
          TAO_PEGTL_KEYWORD("choose"), TAO_PEGTL_KEYWORD("clockwise"),
          TAO_PEGTL_KEYWORD("count"), TAO_PEGTL_KEYWORD("counterclockwise"),
          TAO_PEGTL_KEYWORD("deal"), TAO_PEGTL_KEYWORD("def"), TAO_PEGTL_KEYWORD("down"),
          TAO_PEGTL_KEYWORD("each"), TAO_PEGTL_KEYWORD("else"), TAO_PEGTL_KEYWORD("end"),
          TAO_PEGTL_KEYWORD("enum"), TAO_PEGTL_KEYWORD("exists"), TAO_PEGTL_KEYWORD("face"),
          TAO_PEGTL_KEYWORD("false"), TAO_PEGTL_KEYWORD("first"), TAO_PEGTL_KEYWORD("flip"),
          TAO_PEGTL_KEYWORD("for"), TAO_PEGTL_KEYWORD("from"), TAO_PEGTL_KEYWORD("game"),
          TAO_PEGTL_KEYWORD("hidden"), TAO_PEGTL_KEYWORD("if"), TAO_PEGTL_KEYWORD("in"),
          TAO_PEGTL_KEYWORD("int"), TAO_PEGTL_KEYWORD("invariant"),
          TAO_PEGTL_KEYWORD("jokers"), TAO_PEGTL_KEYWORD("let"), TAO_PEGTL_KEYWORD("max"),
          TAO_PEGTL_KEYWORD("min"), TAO_PEGTL_KEYWORD("move"), TAO_PEGTL_KEYWORD("none"),
          TAO_PEGTL_KEYWORD("not"), TAO_PEGTL_KEYWORD("of"), TAO_PEGTL_KEYWORD("option"),
          TAO_PEGTL_KEYWORD("or"), TAO_PEGTL_KEYWORD("over"), TAO_PEGTL_KEYWORD("override"),
          TAO_PEGTL_KEYWORD("owner"), TAO_PEGTL_KEYWORD("payoff"), TAO_PEGTL_KEYWORD("per"), TAO_PEGTL_KEYWORD("phase"), TAO_PEGTL_KEYWORD("pile"),
          TAO_PEGTL_KEYWORD("player"), TAO_PEGTL_KEYWORD("players"),
          TAO_PEGTL_KEYWORD("policy"), TAO_PEGTL_KEYWORD("public"), TAO_PEGTL_KEYWORD("random"),
          TAO_PEGTL_KEYWORD("repeat"), TAO_PEGTL_KEYWORD("round"), TAO_PEGTL_KEYWORD("rule"),
          TAO_PEGTL_KEYWORD("score"), TAO_PEGTL_KEYWORD("seat"), TAO_PEGTL_KEYWORD("seats"),
          TAO_PEGTL_KEYWORD("set"), TAO_PEGTL_KEYWORD("setup"), TAO_PEGTL_KEYWORD("shuffle"),
          TAO_PEGTL_KEYWORD("simultaneous"), TAO_PEGTL_KEYWORD("standard52"),
          TAO_PEGTL_KEYWORD("sum"), TAO_PEGTL_KEYWORD("swap"),
          TAO_PEGTL_KEYWORD("terminates"), TAO_PEGTL_KEYWORD("then"), TAO_PEGTL_KEYWORD("to"),
          TAO_PEGTL_KEYWORD("top"), TAO_PEGTL_KEYWORD("true"), TAO_PEGTL_KEYWORD("until"),
          TAO_PEGTL_KEYWORD("up"), TAO_PEGTL_KEYWORD("var"), TAO_PEGTL_KEYWORD("variant"),
          TAO_PEGTL_KEYWORD("where"), TAO_PEGTL_KEYWORD("while"),
          TAO_PEGTL_KEYWORD("winners"), TAO_PEGTL_KEYWORD("zone")> {};

struct ident : seq<not_at<reserved>, pegtl::identifier> {};  // a name, not a keyword
struct name : token<ident> {};
struct integer : plus<pegtl::digit> {};                      // decimal, no sign
struct integer_tok : token<integer> {};
struct string_char : sor<seq<one<'\\'>, one<'"', '\\', 'n'>>, pegtl::not_one<'"', '\\', '\n'>> {};
struct string_body : star<string_char> {};
struct string_close : one<'"'> {};
struct string_lit : token<seq<one<'"'>, string_body, must<string_close>>> {};

// Punctuation, each its own rule so that each has its own message.
struct lparen : token<one<'('>> {};
struct rparen : token<one<')'>> {};
struct lbrace : token<one<'{'>> {};
struct rbrace : token<one<'}'>> {};
struct comma : token<one<','>> {};
struct colon : token<seq<one<':'>, not_at<one<'='>>>> {};
struct assign : token<pegtl::string<':', '='>> {};           // `set x := e`
struct equals : token<seq<one<'='>, not_at<one<'='>>>> {};   // declarations: `def f = e`
struct dotdot : token<pegtl::string<'.', '.'>> {};

// Nesting is bounded (see parse.cpp): an expression or a block nested more than
// kMaxNesting levels deep is a syntax error, not a stack overflow in the parser or in any
// pass after it.
template <typename R>
struct nested {
  using rule_t = nested;
  using subs_t = pegtl::type_list<R>;
  template <pegtl::apply_mode A, pegtl::rewind_mode M, template <typename...> class Action,
            template <typename...> class Control, typename ParseInput, typename... States>
  static bool match(ParseInput& in, States&&... st);
};

// `else if` chains: each `else if` nests in the `else` before it, as `else { if ... }` would,
// so it is a level deeper (lowering, the analyses and the verifier follow the chain as far as
// it goes). else_if_level consumes nothing and goes one level down; keeps_depth<R> restores
// the depth after R, at the end of the chain.
struct else_if_level {
  using rule_t = else_if_level;
  using subs_t = pegtl::empty_list;
  template <pegtl::apply_mode A, pegtl::rewind_mode M, template <typename...> class Action,
            template <typename...> class Control, typename ParseInput, typename... States>
  static bool match(ParseInput& in, States&&... st);
};
template <typename R>
struct keeps_depth {
  using rule_t = keeps_depth;
  using subs_t = pegtl::type_list<R>;
  template <pegtl::apply_mode A, pegtl::rewind_mode M, template <typename...> class Action,
            template <typename...> class Control, typename ParseInput, typename... States>
  static bool match(ParseInput& in, States&&... st);
};

// ---- expressions, loosest binding first --------------------------------------------------

struct expr;
struct add_expr;

struct op_or : kw_or {};
struct op_and : kw_and {};
struct op_not : kw_not {};
struct op_eq : token<pegtl::string<'=', '='>> {};
struct op_ne : token<pegtl::string<'!', '='>> {};
struct op_le : token<pegtl::string<'<', '='>> {};
struct op_ge : token<pegtl::string<'>', '='>> {};
struct op_lt : token<one<'<'>> {};
struct op_gt : token<one<'>'>> {};
struct op_not_in : seq<kw_not, kw_in> {};
struct op_in : kw_in {};
struct op_plus : token<one<'+'>> {};
struct op_minus : token<one<'-'>> {};
struct op_times : token<one<'*'>> {};
struct op_divide : token<one<'/'>> {};
struct op_modulo : token<one<'%'>> {};

struct or_operand;
struct and_operand;
struct cmp_operand;
struct add_operand;
struct mul_operand;

struct unary_expr;
struct mul_expr : seq<unary_expr, star<sor<op_times, op_divide, op_modulo>, must<mul_operand>>> {};
struct add_expr : seq<mul_expr, star<sor<op_plus, op_minus>, must<add_operand>>> {};
struct cmp_op : sor<op_eq, op_ne, op_le, op_ge, op_lt, op_gt, op_not_in, op_in> {};
struct cmp_expr : seq<add_expr, opt<cmp_op, must<cmp_operand>>> {};
struct not_expr : nested<sor<seq<op_not, must<and_operand>>, cmp_expr>> {};
struct and_expr : seq<not_expr, star<op_and, must<and_operand>>> {};
struct or_expr : seq<and_expr, star<op_or, must<or_operand>>> {};
struct expr : seq<or_expr> {};

// Operands after an operator, so that "expected an expression after 'and'" can be said.
struct or_operand : seq<and_expr> {};
struct and_operand : seq<not_expr> {};
struct cmp_operand : seq<add_expr> {};
struct add_operand : seq<mul_expr> {};
struct mul_operand : seq<unary_expr> {};

struct negate_expr : seq<op_minus, must<mul_operand>> {};
struct primary;
struct unary_expr : nested<sor<negate_expr, primary>> {};

struct paren_close : rparen {};
struct paren_expr : seq<lparen, must<expr>, must<paren_close>> {};
struct true_lit : kw_true {};
struct false_lit : kw_false {};
struct none_lit : kw_none {};
struct players_lit : kw_players {};
struct seat_index : seq<unary_expr> {};
struct seat_lit : seq<kw_seat, must<seat_index>> {};

// Sets: a literal `{a, b}`, the empty set `{}`, or a comprehension `{x in D where C}`.
struct set_close : rbrace {};
// Common mistakes, caught where they stand so that the message can show the right form: each
// is a rule that never matches, required after a lookahead for the wrong token.
struct range_is_not_a_set : pegtl::failure {};       // `choose k in 1..3`
struct range_in_domain : seq<pegtl::at<dotdot>, must<range_is_not_a_set>> {};
struct domain : seq<add_expr, opt<range_in_domain>> {};  // the set a binder ranges over
struct filter : seq<expr> {};                        // the condition after `where`
struct comprehension : seq<lbrace, name, kw_in, must<domain>, kw_where, must<filter>, must<set_close>> {};
struct set_literal : seq<lbrace, opt<expr, star<comma, must<expr>>>, must<set_close>> {};

// Binders: `exists x in D: C`, `all`, `count`, `sum`; `max x in D by K`; `first x in D ...`.
struct quant_kind : sor<kw_exists, kw_all, kw_count, kw_sum> {};
struct binder_colon : colon {};
struct body : seq<expr> {};
struct quantifier : seq<quant_kind, name, kw_in, must<domain>, must<binder_colon>, must<body>> {};
struct key_list : seq<lparen, expr, plus<comma, must<expr>>, must<paren_close>> {};
struct key : sor<key_list, add_expr> {};
struct extremum_kind : sor<kw_max, kw_min> {};
struct extremum_by : kw_by {};
struct extremum_value : seq<binder_colon, must<body>> {};  // `max x in D: E`: the largest E itself
struct extremum_rest : sor<seq<extremum_by, must<key>>, extremum_value> {};
struct extremum : seq<extremum_kind, name, kw_in, must<domain>, must<extremum_rest>> {};
struct order_start : seq<add_expr> {};
struct order_cw : kw_clockwise {};
struct order_ccw : kw_counterclockwise {};
struct seat_order : seq<sor<order_cw, order_ccw>, must<kw_from>, must<order_start>> {};
struct order_up : seq<kw_bottom, kw_to, kw_top> {};
struct order_down : seq<kw_top, kw_to, kw_bottom> {};
struct pile_order : sor<order_up, order_down> {};
struct order : sor<seat_order, pile_order> {};
struct first_expr : seq<kw_first, must<name>, must<kw_in>, must<domain>, opt<order>, opt<kw_where, must<filter>>> {};

struct cond_then : kw_then {};
struct cond_else : kw_else {};
struct conditional : seq<kw_if, must<expr>, must<cond_then>, must<expr>, must<cond_else>, must<expr>> {};

// Calls: definitions, builtins, per-player variables and zones. A few builtins share a
// word with a binder or an order (count, max, min, top, bottom) and are callable too.
struct callee : sor<ident, TAO_PEGTL_KEYWORD("count"), TAO_PEGTL_KEYWORD("max"),
                    TAO_PEGTL_KEYWORD("min"), TAO_PEGTL_KEYWORD("top"),
                    TAO_PEGTL_KEYWORD("bottom")> {};
struct call_close : rparen {};
struct where_in_call : pegtl::failure {};            // `count(c in S where C)`
struct call_where : seq<pegtl::at<kw_where>, must<where_in_call>> {};
struct call : seq<token<callee>, lparen, opt<expr, star<comma, must<expr>>>, opt<call_where>, must<call_close>> {};
struct binder_is_not_a_call : pegtl::failure {};     // `sum(x for p in S)`
struct binder_call : seq<pegtl::at<sor<kw_sum, kw_exists, kw_all>, lparen>, must<binder_is_not_a_call>> {};
struct name_ref : name {};

struct primary
    : sor<paren_expr, integer_tok, true_lit, false_lit, none_lit, players_lit, seat_lit,
          comprehension, set_literal, quantifier, extremum, first_expr, conditional, call,
          name_ref, binder_call> {};

// ---- types -------------------------------------------------------------------------------

struct type;
struct type_int : kw_int {};
struct type_bool : kw_bool {};
struct type_player : kw_player {};
struct type_card : kw_card {};
// `set of set of ...` nests like parentheses do, and counts against the same limit.
struct type_set : nested<seq<kw_set, must<kw_of>, must<type>>> {};
struct type_named : name {};
struct type : sor<type_int, type_bool, type_player, type_card, type_set, type_named> {};

// ---- statements --------------------------------------------------------------------------

struct stmt;
struct block;
struct statement : seq<stmt> {};                     // a statement where one is required

struct face_up : kw_up {};
struct face_down : kw_down {};
struct face_word : sor<face_up, face_down> {};
struct facing : seq<kw_face, must<face_word>> {};
struct at_top : kw_top {};
struct at_bottom : kw_bottom {};
struct placement_word : sor<at_top, at_bottom> {};
struct placement : seq<kw_at, must<placement_word>> {};

struct rule_colon : colon {};
// A labelled statement may itself be labelled (`rule a: rule b: ...`): each label is a level.
struct labelled_statement : nested<stmt> {};
struct rule_stmt : seq<kw_rule, must<name>, must<rule_colon>, must<labelled_statement>> {};
struct phase_stmt : seq<kw_phase, must<name>, must<block>> {};
struct repeat_stmt : seq<kw_repeat, must<expr>, must<block>> {};
struct while_stmt : seq<kw_while, must<expr>, must<block>> {};
struct until_stmt : seq<kw_until, must<expr>, must<block>> {};
struct for_in : kw_in {};
struct walk_direction : pegtl::failure {};           // `for each p in players from X`
struct from_without_direction : seq<pegtl::at<kw_from>, must<walk_direction>> {};
struct for_stmt : seq<kw_for, must<kw_each>, must<name>, must<for_in>, must<domain>, opt<order>, opt<from_without_direction>, must<block>> {};
struct else_if : seq<kw_else, kw_if, else_if_level, must<expr>, must<block>> {};
struct else_block : seq<kw_else, must<block>> {};
struct if_stmt : keeps_depth<seq<kw_if, must<expr>, must<block>, star<else_if>, opt<else_block>>> {};
struct simultaneous_stmt : seq<kw_simultaneous, must<kw_for>, must<kw_each>, must<name>, must<for_in>, must<domain>, must<block>> {};
struct chooser : seq<add_expr> {};
struct random_word : kw_random {};
// `at random`: no player decides; the game's generator draws among the legal options.
struct no_chooser : not_at<kw_by> {};  // `at random by p`: a random choice has no chooser
struct at_random : seq<kw_at, must<random_word>, must<no_chooser>> {};
struct choose_by : sor<seq<kw_by, must<chooser>>, at_random> {};
struct choose_stmt : seq<kw_choose, must<name>, must<for_in>, must<domain>, must<choose_by>, opt<kw_where, must<filter>>> {};
// A decision with alternatives: `choose by p { play c in hand(p) where G { ... }  pass }`.
// Each alternative is a name, optionally an element `x in D`, a guard and a block; a name not
// followed by `in` is an alternative without an element (the next line's name starts the next).
struct alt_name : name {};
struct alt_var : name {};
struct alt_element : seq<alt_var, kw_in, must<domain>> {};
struct alt_guard : seq<kw_where, must<filter>> {};
struct alternative : seq<alt_name, opt<alt_element>, opt<alt_guard>, opt<block>> {};
struct alternatives_open : lbrace {};
struct alternatives_close : rbrace {};
struct mixed_choose_stmt : seq<kw_choose, kw_by, must<chooser>, must<alternatives_open>, must<alternative>, star<alternative>, must<alternatives_close>> {};
struct let_stmt : seq<kw_let, must<name>, must<equals>, must<expr>> {};
struct target_zone : seq<add_expr> {};
struct move_to : kw_to {};
struct move_stmt : seq<kw_move, must<expr>, must<move_to>, must<target_zone>, opt<placement>, opt<facing>> {};
struct deal_from : kw_from {};
struct source_zone : seq<add_expr> {};
struct deal_stmt : seq<kw_deal, must<add_expr>, must<deal_from>, must<source_zone>, must<move_to>, must<target_zone>, opt<facing>> {};
struct shuffle_stmt : seq<kw_shuffle, must<source_zone>> {};
struct flip_stmt : seq<kw_flip, must<expr>, must<facing>> {};
struct lvalue : sor<call, name_ref> {};
struct set_stmt : seq<kw_set, must<lvalue>, must<assign>, must<expr>> {};
struct add_stmt : seq<kw_add, must<expr>, must<move_to>, must<lvalue>> {};
struct swap_and : kw_and {};
struct swap_stmt : seq<kw_swap, must<kw_seats>, must<add_expr>, must<swap_and>, must<add_expr>> {};
struct end_game : kw_game {};
struct end_stmt : seq<kw_end, must<end_game>, opt<kw_winners, must<expr>>> {};

struct stmt
    : sor<rule_stmt, phase_stmt, repeat_stmt, while_stmt, until_stmt, for_stmt, if_stmt,
          simultaneous_stmt, mixed_choose_stmt, choose_stmt, let_stmt, move_stmt, deal_stmt, shuffle_stmt,
          flip_stmt, set_stmt, add_stmt, swap_stmt, end_stmt> {};

// Error recovery (see parse.cpp): on a syntax error inside R, the error is recorded, the
// input is skipped to the next line that starts a statement (or the closing brace of the
// enclosing block, or a top-level keyword), and parsing goes on.
template <typename R, bool TopLevel>
struct recover {
  using rule_t = recover;
  using subs_t = pegtl::type_list<R>;
  template <pegtl::apply_mode A, pegtl::rewind_mode M, template <typename...> class Action,
            template <typename...> class Control, typename ParseInput, typename... States>
  static bool match(ParseInput& in, States&&... st);
};

struct recover_stmt : recover<must<statement>, false> {};
struct block_close : rbrace {};
struct block : nested<seq<lbrace, star<not_at<rbrace>, not_at<eof>, recover_stmt>, must<block_close>>> {};

// ---- declarations ------------------------------------------------------------------------

struct players_min : integer_tok {};
struct players_max : integer_tok {};
struct players_default_count : integer_tok {};
// `default N`: the count a command uses without --players. `default` is a word only here,
// so it stays free as a name.
struct players_default : seq<token<TAO_PEGTL_KEYWORD("default")>, must<players_default_count>> {};
struct players_decl : seq<kw_players, must<players_min>, opt<dotdot, must<players_max>>, opt<players_default>> {};
struct seats_count : integer_tok {};
struct seats_decl : seq<kw_seats, must<seats_count>> {};
struct jokers_count : integer_tok {};
struct standard52_item : kw_standard52 {};
struct jokers_item : seq<kw_jokers, must<jokers_count>> {};
struct kind_colon : colon {};
struct kind_item : seq<name, must<kind_colon>, must<expr>> {};
struct card_item : sor<standard52_item, jokers_item, kind_item> {};
struct cards_close : rbrace {};
struct cards_decl : seq<kw_cards, must<lbrace>, star<card_item>, must<cards_close>> {};
struct enum_close : rbrace {};
struct enum_decl : seq<kw_enum, must<name>, must<lbrace>, must<name>, star<comma, must<name>>, must<enum_close>> {};
struct param_close : rparen {};
struct player_param : seq<lparen, must<name>, must<param_close>> {};
struct zone_shape : sor<kw_pile, kw_set> {};
struct visibility : sor<kw_hidden, kw_owner, kw_public> {};
struct zone_colon : colon {};
struct zone_decl : seq<kw_zone, must<name>, opt<player_param>, must<zone_colon>, must<zone_shape>, must<visibility>> {};
struct type_colon : colon {};
struct init_equals : equals {};
struct per_round : seq<kw_per, must<kw_round>> {};
struct var_decl : seq<kw_var, must<name>, opt<player_param>, must<type_colon>, must<type>, must<init_equals>, must<expr>, opt<per_round>> {};
struct range_min : integer_tok {};
struct range_max : integer_tok {};
struct option_range : seq<kw_in, must<range_min>, must<dotdot>, must<range_max>> {};
struct option_doc : string_lit {};
struct option_decl : seq<kw_option, must<name>, must<type_colon>, must<type>, must<init_equals>, must<add_expr>, opt<option_range>, opt<option_doc>> {};
struct param : seq<name, must<type_colon>, must<type>> {};
struct params : seq<lparen, opt<param, star<comma, must<param>>>, must<param_close>> {};
struct result_type : seq<colon, must<type>> {};
struct def_decl : seq<kw_def, must<name>, opt<params>, opt<result_type>, must<init_equals>, must<expr>> {};
struct score_decl : seq<kw_score, must<name>, must<player_param>, must<init_equals>, must<expr>> {};
// `payoff NAME(p): VALUE`: an exact rational per player at the game's end. VALUE is an int
// expression, `N over D` (`over` binds loosest and exists only here), or a conditional whose
// branches are payoff values, so `over` may sit at the top or in a branch.
struct payoff_value;
struct payoff_over : kw_over {};
struct payoff_ratio : seq<expr, opt<payoff_over, must<expr>>> {};
struct payoff_cond : nested<seq<kw_if, must<expr>, must<cond_then>, must<payoff_value>, must<cond_else>, must<payoff_value>>> {};
struct payoff_value : sor<payoff_cond, payoff_ratio> {};
struct payoff_colon : colon {};
struct payoff_decl : seq<kw_payoff, must<name>, must<player_param>, must<payoff_colon>, must<payoff_value>> {};
struct setup_decl : seq<kw_setup, must<block>> {};
struct round_decl : seq<kw_round, must<block>> {};
struct policy_colon : colon {};
struct policy_entry : seq<name, must<policy_colon>, must<expr>> {};
struct policy_close : rbrace {};
struct policy_decl : seq<kw_policy, must<name>, must<lbrace>, star<policy_entry>, must<policy_close>> {};
struct invariant_colon : colon {};
struct invariant_decl : seq<kw_invariant, must<name>, must<invariant_colon>, must<expr>> {};
struct terminates_game : kw_game {};
struct terminates_round : kw_round {};
struct terminates_target : sor<terminates_game, terminates_round, name> {};
struct measure : seq<expr> {};
struct terminates_decl : seq<kw_terminates, must<terminates_target>, opt<kw_by, must<measure>>> {};
struct override_option : seq<kw_option, must<name>, must<init_equals>, must<expr>> {};
struct override_what : sor<override_option, rule_stmt, def_decl> {};
struct override_decl : seq<kw_override, must<override_what>> {};

struct decl
    : sor<players_decl, seats_decl, cards_decl, enum_decl, zone_decl, var_decl, option_decl,
          def_decl, score_decl, payoff_decl, setup_decl, round_decl, policy_decl, invariant_decl,
          terminates_decl, override_decl> {};
struct declaration : seq<decl> {};                   // a declaration where one is required

// ---- files -------------------------------------------------------------------------------

struct title : string_lit {};
struct base_path : string_lit {};
struct game_header : seq<kw_game, must<title>> {};
struct variant_of : kw_of {};
struct variant_header : seq<kw_variant, must<title>, must<variant_of>, must<base_path>> {};
struct header : sor<game_header, variant_header> {};
struct recover_decl : recover<must<declaration>, true> {};
struct end_of_file : eof {};
// A UTF-8 byte-order mark, as Windows editors write it, is allowed before everything else.
struct byte_order_mark : pegtl::string<'\xEF', '\xBB', '\xBF'> {};
struct file : seq<opt<byte_order_mark>, sp, must<header>, star<not_at<eof>, recover_decl>, must<end_of_file>> {};

}  // namespace rulebook::grammar::peg

namespace tao::pegtl {
// For the grammar analysis, a recovering rule behaves like the rule it wraps.
template <typename Name, typename R, bool TopLevel>
struct analyze_traits<Name, rulebook::grammar::peg::recover<R, TopLevel>>
    : analyze_traits<Name, typename seq<R>::rule_t> {};

// else_if_level consumes nothing and always succeeds (or raises); keeps_depth<R> is R.
template <typename Name>
struct analyze_traits<Name, rulebook::grammar::peg::else_if_level>
    : analyze_traits<Name, typename success::rule_t> {};
template <typename Name, typename R>
struct analyze_traits<Name, rulebook::grammar::peg::keeps_depth<R>>
    : analyze_traits<Name, typename seq<R>::rule_t> {};

// A nested rule consumes what its rule consumes.
template <typename Name, typename R>
struct analyze_traits<Name, rulebook::grammar::peg::nested<R>>
    : analyze_traits<Name, typename seq<R>::rule_t> {};
}  // namespace tao::pegtl
