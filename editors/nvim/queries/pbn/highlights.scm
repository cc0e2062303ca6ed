; Syntax highlighting for PBN 2.1 (capture names shared by Neovim, Helix and Zed).

; §2.4 escape lines (`% PBN 2.1`, `% EXPORT`, anything else in column 0)
(escape_line) @keyword.directive

; §3.8 commentary
(comment) @comment

; §3.3 tag pairs
["[" "]"] @punctuation.bracket

(tag_name) @property

; Section tags: listed after the general rule, since the last match wins
; (Neovim, Helix).
(tag_pair
  name: (tag_name) @keyword
  (#any-of? @keyword "Auction" "Play" "Note"))

(string) @string
(unterminated_string) @error

; §3.5 calls: one node per run of call tokens on a line (a `-` or a token
; that is not a call included; the language server's semantic tokens and
; diagnostics tell them apart)
(calls) @constant.builtin

; §3.6 cards: one node per run of card tokens on a line (a `-` or a token
; that is not a card included; the language server's semantic tokens and
; diagnostics tell them apart)
(cards) @constant

; §3.5.2–§3.7 annotations and §3.9 irregularities
(suffix) @operator
(note_ref) @label
(nag) @number
(irregularity) @keyword.exception

; §3.5/§3.6 `*` and `+`
(terminator) @punctuation.special
(continuation) @punctuation.special

; §5 supplemental sections
(section_token) @string.special
