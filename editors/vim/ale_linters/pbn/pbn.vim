" ALE linter for PBN (Portable Bridge Notation) files.
"
" By default ALE runs `pbn check --format json -` on the buffer (diagnostics
" with their PBN codes). With
"   let g:ale_pbn_pbn_use_lsp = 1
" (set before the first PBN buffer is opened) the linter is `pbn lsp`
" instead, which also gives ALE's hover, go-to-definition of notes,
" references, rename and completion.
"
" Options:
"   g:ale_pbn_pbn_executable   the pbn binary (default 'pbn')
"   g:ale_pbn_pbn_options      extra `pbn check` options (e.g. '--export')

call ale#Set('pbn_pbn_executable', 'pbn')
call ale#Set('pbn_pbn_options', '')
call ale#Set('pbn_pbn_use_lsp', 0)

if ale#Var(bufnr(''), 'pbn_pbn_use_lsp')
  call ale#linter#Define('pbn', {
  \   'name': 'pbn',
  \   'lsp': 'stdio',
  \   'executable': {b -> ale#Var(b, 'pbn_pbn_executable')},
  \   'command': '%e lsp',
  \   'project_root': function('pbn#ale#ProjectRoot'),
  \})
else
  call ale#linter#Define('pbn', {
  \   'name': 'pbn',
  \   'executable': {b -> ale#Var(b, 'pbn_pbn_executable')},
  \   'command': {b -> '%e check --format json --color never'
  \       . ale#Pad(ale#Var(b, 'pbn_pbn_options')) . ' -'},
  \   'callback': 'pbn#ale#Handle',
  \   'output_stream': 'stdout',
  \})
endif
