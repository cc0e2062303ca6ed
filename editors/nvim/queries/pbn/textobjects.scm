; Text objects (nvim-treesitter-textobjects capture names).
; A game is the "class"; a section is a "block"; a tag pair is a "parameter".

(game) @class.outer
(game) @class.inner

(auction_section) @block.outer
(play_section) @block.outer
(supplemental_section) @block.outer

(tag_pair) @parameter.outer
(tag_pair value: (string) @parameter.inner)

(comment) @comment.outer
