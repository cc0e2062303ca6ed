; PBN has no embedded languages. Comments may hold free text; editors that
; support a `comment` grammar (TODO/FIXME highlighting) can use it.
((comment) @injection.content
  (#set! injection.language "comment"))
