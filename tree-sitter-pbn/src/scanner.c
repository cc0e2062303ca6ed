/*
 * External scanner for tree-sitter-pbn.
 *
 * It lexes the two tokens whose meaning depends on line structure, which a
 * context-free lexer cannot see:
 *
 *   game_break   one or more semi-empty lines (empty, or only spaces and
 *                tabs).  PBN 2.1 §3: "Each game, except for the first game,
 *                starts with a semi-empty line."  A semi-empty line inside a
 *                `{}` comment is part of the comment token and never reaches
 *                this scanner.
 *   escape_line  a line whose first character (column 0) is `%`, up to but
 *                excluding the line end (§2.4).  A `%` anywhere else is not an
 *                escape.
 *
 * The scanner is stateless.  It is called before every token (escape_line is
 * an extra, so it is valid everywhere).  It returns quickly when the next
 * character is neither white space nor `%`.  A blank line is reported as a
 * game break even where the grammar does not expect one (e.g. inside a tag
 * pair): the parser then recovers with a small ERROR/MISSING node instead of
 * letting one broken game swallow the next.
 */

#include "tree_sitter/parser.h"

#include <stdbool.h>
#include <stdint.h>

enum TokenType {
  GAME_BREAK,
  ESCAPE_LINE,
  NOTE_OPEN,
  JUNK,
  ERROR_SENTINEL,
};

/* A run of at least this many of one character is one `junk` token in
 * error recovery. */
#define JUNK_MIN 8

/* Characters whose long runs are junk: ASCII punctuation that does not
 * open a comment, a string or an escape line (`{`, `;`, `"`, `%`), where
 * no token is that long a run of one character. */
static inline bool is_junk_char(int32_t c) {
  return c > ' ' && c < 0x7f && !(c >= '0' && c <= '9') && !(c >= 'A' && c <= 'Z') &&
         !(c >= 'a' && c <= 'z') && c != '{' && c != '}' && c != ';' && c != '"' &&
         c != '%' && c != '\\';
}



void *tree_sitter_pbn_external_scanner_create(void) { return NULL; }
void tree_sitter_pbn_external_scanner_destroy(void *payload) { (void)payload; }
unsigned tree_sitter_pbn_external_scanner_serialize(void *payload, char *buffer) {
  (void)payload;
  (void)buffer;
  return 0;
}
void tree_sitter_pbn_external_scanner_deserialize(void *payload, const char *buffer,
                                                  unsigned length) {
  (void)payload;
  (void)buffer;
  (void)length;
}

/* Horizontal white space.  §3 defines a semi-empty line as one with only
 * spaces and/or tab characters; §2.2 permits both the horizontal and the
 * vertical tab.  A form feed is not permitted at all (§2.2, the checker
 * reports it) but the grammar's extras skip it as white space like the
 * others, so it counts here too: otherwise a form feed before a line end
 * would hide the blank line after it from this scanner (the lexer would
 * skip both), and the game break would vanish.  `syntax/split.rs` uses the
 * same set. */
static inline bool is_hspace(int32_t c) {
  return c == ' ' || c == '\t' || c == '\v' || c == '\f';
}

static inline bool is_newline(int32_t c) { return c == '\n' || c == '\r'; }

/* Consume one line end: LF, CRLF or a lone CR. */
static inline void consume_newline(TSLexer *lexer, bool skip) {
  if (lexer->lookahead == '\r') {
    lexer->advance(lexer, skip);
    if (lexer->lookahead == '\n') lexer->advance(lexer, skip);
  } else {
    lexer->advance(lexer, skip);
  }
}

static inline bool is_name_char(int32_t c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
         c == '_';
}

/* The `[` of a Note tag, where the grammar can take a section note (the
 * `[` is the lookahead).  The token is the `[` alone; the scanner only
 * looks past it for the name `Note`.  Without this token the parser needs
 * two tokens of lookahead after the calls (cards) of a section: `[` opens
 * either one of its notes or the next tag of the game.  Resolving that by
 * GLR made the nodes built meanwhile "fragile", and tree-sitter never
 * reuses fragile nodes in an incremental reparse, so every edit reparsed
 * the whole file. */
static bool scan_note_open_rest(TSLexer *lexer);

static bool scan_note_open(TSLexer *lexer) {
  lexer->advance(lexer, false);
  lexer->mark_end(lexer);
  return scan_note_open_rest(lexer);
}

/* scan_note_open after its `[` (consumed and marked as the token's end). */
static bool scan_note_open_rest(TSLexer *lexer) {
  while (is_hspace(lexer->lookahead) || is_newline(lexer->lookahead)) {
    lexer->advance(lexer, false);
  }
  static const char NOTE[] = "Note";
  for (int i = 0; NOTE[i]; i++) {
    if (lexer->lookahead != NOTE[i]) return false;
    lexer->advance(lexer, false);
  }
  if (is_name_char(lexer->lookahead)) return false;
  lexer->result_symbol = NOTE_OPEN;
  return true;
}

/* In error recovery, a run of one punctuation character of at least
 * JUNK_MIN is one token. Tree-sitter otherwise skips it a character at a
 * time, each one a node of about 190 bytes in the ERROR node: 4 MB of `[`
 * took 750 MB. A shorter run is no token (false: the lexer goes back to the
 * token's start), except that a lone `[` may still open a Note tag. */
static bool scan_junk(TSLexer *lexer) {
  int32_t c = lexer->lookahead;
  unsigned n = 0;
  while (lexer->lookahead == c) {
    lexer->advance(lexer, false);
    n++;
    if (n == 1) lexer->mark_end(lexer);
  }
  if (n == 1 && c == '[') return scan_note_open_rest(lexer);
  if (n < JUNK_MIN) return false;
  lexer->mark_end(lexer);
  lexer->result_symbol = JUNK;
  return true;
}

/* Consume the rest of an escape line (the `%` is the lookahead). */
static bool finish_escape_line(TSLexer *lexer) {
  while (!lexer->eof(lexer) && !is_newline(lexer->lookahead)) {
    lexer->advance(lexer, false);
  }
  lexer->mark_end(lexer);
  lexer->result_symbol = ESCAPE_LINE;
  return true;
}

bool tree_sitter_pbn_external_scanner_scan(void *payload, TSLexer *lexer,
                                           const bool *valid_symbols) {
  (void)payload;

  int32_t c = lexer->lookahead;
  bool note = valid_symbols[NOTE_OPEN];

  if (valid_symbols[ERROR_SENTINEL] && is_junk_char(c)) return scan_junk(lexer);

  /* A byte order mark at the start of the file: `%` right after it is still
   * in the first column. */
  if (c == 0xFEFF && lexer->get_column(lexer) == 0) {
    lexer->advance(lexer, true);
    if (lexer->lookahead == '%') return finish_escape_line(lexer);
    return false;
  }

  /* Fast path: the next token starts right here. */
  if (c == '%') {
    if (lexer->get_column(lexer) == 0) return finish_escape_line(lexer);
    return false;
  }
  if (c == '[') return note && scan_note_open(lexer);
  if (!is_hspace(c) && !is_newline(c)) return false;

  /* Skip the white space up to the end of the current line. */
  while (is_hspace(lexer->lookahead)) lexer->advance(lexer, true);
  if (!is_newline(lexer->lookahead)) {
    return note && lexer->lookahead == '[' && scan_note_open(lexer);
  }
  consume_newline(lexer, true);

  /* Now at column 0 of the next line. */
  if (lexer->lookahead == '%') return finish_escape_line(lexer);
  while (is_hspace(lexer->lookahead)) lexer->advance(lexer, true);
  if (!is_newline(lexer->lookahead)) {  /* content or EOF */
    return note && lexer->lookahead == '[' && scan_note_open(lexer);
  }

  /* That line was semi-empty: a game break.  Swallow every following
   * semi-empty line too, so that the token ends at the start of the next
   * non-blank line (or at EOF). */
  consume_newline(lexer, false);
  lexer->mark_end(lexer);
  for (;;) {
    while (is_hspace(lexer->lookahead)) lexer->advance(lexer, false);
    if (!is_newline(lexer->lookahead)) break;
    consume_newline(lexer, false);
    lexer->mark_end(lexer);
  }
  lexer->result_symbol = GAME_BREAK;
  return true;
}
