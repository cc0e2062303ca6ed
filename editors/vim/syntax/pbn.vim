" Vim syntax file for Portable Bridge Notation (PBN 2.1).
if exists('b:current_syntax')
  finish
endif

syntax case match

" §2.4 escape lines: `%` in column 0
syntax match pbnEscape /^%.*$/
" §3.8 comments
syntax match pbnComment /;.*$/ contains=@Spell
syntax region pbnComment start=/{/ end=/}/ contains=@Spell
" §3.3 tag pairs: [Name "value"]
syntax match pbnBracket /[[\]]/
syntax match pbnTagName /\[\@<=\s*\zs[A-Za-z0-9_]\+/
syntax match pbnSectionTag /\[\@<=\s*\zs\%(Auction\|Play\|Note\)\>/
" §3.2 strings end at their line
syntax region pbnString start=/"/ skip=/\\./ end=/"\|$/ oneline
" §3.5 calls, §3.6 cards (lower case accepted, §3.11)
syntax match pbnCall /\<\%([1-7]\%([CDHScdhs]\|[Nn][Tt]\)\|[Pp][Aa][Ss][Ss]\|[Xx][Xx]\=\|[Aa][Pp]\)\>/
syntax match pbnCard /\<[SHDCshdc][AKQJTakqjt2-9]\>/
" §3.5.4 note references, §3.7 NAGs, suffixes, §3.9 irregularities
syntax match pbnNoteRef /=[^=[:space:][\]{};"%]*=/
syntax match pbnNag /\$[A-Za-z0-9]*/
syntax match pbnSuffix /[!?][!?]\=/
syntax match pbnIrregularity /\^[A-Za-z]/
syntax match pbnTerminator /[*+]/

highlight default link pbnEscape PreProc
highlight default link pbnComment Comment
highlight default link pbnBracket Delimiter
highlight default link pbnTagName Identifier
highlight default link pbnSectionTag Keyword
highlight default link pbnString String
highlight default link pbnCall Number
highlight default link pbnCard Constant
highlight default link pbnNoteRef Label
highlight default link pbnNag Special
highlight default link pbnSuffix Operator
highlight default link pbnIrregularity Exception
highlight default link pbnTerminator SpecialChar

let b:current_syntax = 'pbn'
