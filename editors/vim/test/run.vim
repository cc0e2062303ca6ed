" Headless test driver for the Vim/ALE integration, run by
" tests/tests/editor_vim.rs as
"   vim -N -u test/vimrc -i NONE -es -S test/run.vim
" Environment:
"   PBN_TEST_SCENARIO    lint | fix | syntax
"   PBN_TEST_FILE        the .pbn file to open
"   PBN_TEST_POSITIONS   JSON [[line, col], ...] (1-based) whose syntax groups are reported
"   PBN_TEST_OUT         where to write the JSON result
"   PBN_TEST_TIMEOUT_MS  how long to wait for ALE (default 20000)
" The result is {"ok": bool, "error": string, "data": {...}, "log": [...]}.
let s:log = []
let s:timeout = empty($PBN_TEST_TIMEOUT_MS) ? 20000 : str2nr($PBN_TEST_TIMEOUT_MS)

function! s:Write(result) abort
  let a:result.log = s:log
  let a:result.vim_version = v:version . '.' . get(v:, 'versionlong', 0)
  call writefile([json_encode(a:result)], $PBN_TEST_OUT)
endfunction

function! s:Wait(what, Cond) abort
  let l:start = reltime()
  while !a:Cond()
    if reltimefloat(reltime(l:start)) * 1000 > s:timeout
      throw 'timed out after ' . s:timeout . ' ms waiting for ' . a:what
    endif
    sleep 20m
  endwhile
endfunction

function! s:HasCode(code) abort
  for l:item in getloclist(0)
    if get(l:item, 'text', '') =~# a:code
      return 1
    endif
  endfor
  return 0
endfunction

function! s:Open() abort
  execute 'edit ' . fnameescape($PBN_TEST_FILE)
  if &filetype isnot# 'pbn'
    throw 'filetype is "' . &filetype . '", not pbn'
  endif
endfunction

let s:scenarios = {}

" ALE lints the buffer; the location list gets the diagnostics.
function! s:scenarios.lint() abort
  call s:Open()
  let l:data = {}
  let l:data.linters = map(copy(ale#linter#Get('pbn')),
  \ 'v:val.name . (empty(get(v:val, "lsp", "")) ? "" : "(lsp)")')
  call ale#Queue(0, '', bufnr(''))
  call s:Wait('ALE to report PBN0003', {-> s:HasCode('PBN0003')})
  call s:Wait('ALE to finish', {-> !ale#engine#IsCheckingBuffer(bufnr(''))})
  let l:data.loclist = map(getloclist(0),
  \ '{"lnum": v:val.lnum, "col": v:val.col, "type": v:val.type, "text": v:val.text}')
  let l:data.ale_problems = ale#statusline#Count(bufnr(''))
  return l:data
endfunction

" :ALEFix with the pbn_fmt fixer (registered by ftplugin/pbn.vim), then :write.
function! s:scenarios.fix() abort
  call s:Open()
  let l:before = getline(1, '$')
  let l:tick = b:changedtick
  ALEFix
  call s:Wait('ALEFix to change the buffer', {-> b:changedtick != l:tick})
  write
  return {'changed': getline(1, '$') != l:before ? v:true : v:false,
  \ 'fixers': get(g:, 'ale_fixers', {})}
endfunction

" syntax/pbn.vim groups at known positions.
function! s:scenarios.syntax() abort
  call s:Open()
  let l:groups = []
  for l:pos in json_decode(empty($PBN_TEST_POSITIONS) ? '[]' : $PBN_TEST_POSITIONS)
    call add(l:groups, {'line': l:pos[0], 'col': l:pos[1],
    \ 'group': synIDattr(synID(l:pos[0], l:pos[1], 1), 'name')})
  endfor
  return {'syntax': l:groups, 'commentstring': &commentstring}
endfunction

try
  if !has_key(s:scenarios, $PBN_TEST_SCENARIO)
    throw 'unknown scenario: ' . $PBN_TEST_SCENARIO
  endif
  call s:Write({'ok': v:true, 'data': s:scenarios[$PBN_TEST_SCENARIO]()})
catch
  call add(s:log, v:exception . ' @ ' . v:throwpoint)
  call add(s:log, execute('messages'))
  call s:Write({'ok': v:false, 'error': v:exception})
endtry
qall!
