" Portable Bridge Notation files.
autocmd BufRead,BufNewFile *.pbn,*.PBN setfiletype pbn
