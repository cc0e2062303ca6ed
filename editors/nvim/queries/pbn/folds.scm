; Folding: a game, each section (with its notes), and multi-line comments.
[
  (game)
  (auction_section)
  (play_section)
  (supplemental_section)
  (comment)
] @fold
