; Text objects for Helix (capture names from Helix's textobject guide), made
; from tree-sitter-pbn/queries/textobjects.scm (which uses the
; nvim-treesitter-textobjects names).
; A game is the "class" (mat / mit, ]t [t); a tag pair is a "parameter"
; (maa / mia, ]a [a); an auction, play or supplemental section is an
; "entry"; comments are comments (mac / mic, ]c [c).

; A game has no delimiters: inside and around are the same.
(game) @class.around
(game) @class.inside

(tag_pair value: (_) @parameter.inside) @parameter.around

(auction_section) @entry.around
(play_section) @entry.around
(supplemental_section) @entry.around

(comment) @comment.inside
(comment)+ @comment.around
