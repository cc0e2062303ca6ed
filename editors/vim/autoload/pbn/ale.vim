" ALE support for PBN: the handler of `pbn check --format json -` and the
" `pbn fmt -` fixer. See ale_linters/pbn/pbn.vim.

" The options, also for the fixer when no linter has run yet.
call ale#Set('pbn_pbn_executable', 'pbn')
call ale#Set('pbn_pbn_options', '')
call ale#Set('pbn_pbn_use_lsp', 0)

" Character column (1-based, as `pbn check` reports it) to byte column.
function! s:ByteCol(buffer, lnum, col) abort
  let l:line = get(getbufline(a:buffer, a:lnum), 0, '')
  let l:byte = byteidx(l:line, a:col - 1)
  return l:byte < 0 ? len(l:line) + 1 : l:byte + 1
endfunction

let s:types = {'error': 'E', 'warning': 'W', 'info': 'I', 'hint': 'I'}

function! pbn#ale#Handle(buffer, lines) abort
  let l:text = join(a:lines, "\n")
  if l:text !~# '^\s*{'
    return []
  endif
  try
    let l:json = json_decode(l:text)
  catch
    return []
  endtry
  let l:output = []
  for l:file in get(l:json, 'files', [])
    for l:d in get(l:file, 'diagnostics', [])
      let l:item = {
      \ 'lnum': l:d.line,
      \ 'col': s:ByteCol(a:buffer, l:d.line, l:d.column),
      \ 'code': l:d.code,
      \ 'text': l:d.message,
      \ 'type': get(s:types, l:d.severity, 'E'),
      \}
      if l:d.severity is# 'hint'
        let l:item.sub_type = 'style'
      endif
      if has_key(l:d, 'end_line')
        let l:item.end_lnum = l:d.end_line
        " ALE's end column is inclusive; pbn's is one past the end.
        let l:item.end_col = max([s:ByteCol(a:buffer, l:d.end_line, l:d.end_column) - 1, 1])
        if l:item.end_lnum == l:item.lnum && l:item.end_col < l:item.col
          let l:item.end_col = l:item.col
        endif
      endif
      call add(l:output, l:item)
    endfor
  endfor
  return l:output
endfunction

" The project root for the LSP variant: the nearest pbn.toml or .git.
function! pbn#ale#ProjectRoot(buffer) abort
  for l:marker in ['pbn.toml', '.git']
    let l:found = ale#path#FindNearestFile(a:buffer, l:marker)
    if empty(l:found)
      let l:found = ale#path#FindNearestDirectory(a:buffer, l:marker)
    endif
    if !empty(l:found)
      return fnamemodify(l:found, l:marker is# '.git' ? ':h:h' : ':h')
    endif
  endfor
  return fnamemodify(bufname(a:buffer), ':p:h')
endfunction

" ALE fixer: pipe the buffer through `pbn fmt -` (export format).
function! pbn#ale#Fix(buffer) abort
  return {'command': ale#Escape(ale#Var(a:buffer, 'pbn_pbn_executable')) . ' fmt -'}
endfunction
