" Buffer settings for PBN (Portable Bridge Notation) files.
if exists('b:did_ftplugin')
  finish
endif
let b:did_ftplugin = 1

" `;` comments to the end of the line; `{ ... }` comments (PBN §3.8).
setlocal commentstring=;\ %s
setlocal comments=:;
let b:undo_ftplugin = 'setlocal commentstring< comments<'

" Register the ALE fixer `pbn_fmt` (`pbn fmt -`, export format) when ALE is
" installed, so that  let g:ale_fixers = {'pbn': ['pbn_fmt']}  works.
if !exists('g:pbn_ale_fixer_registered') && !empty(globpath(&runtimepath, 'autoload/ale/fix/registry.vim'))
  let g:pbn_ale_fixer_registered = 1
  try
    call ale#fix#registry#Add('pbn_fmt', 'pbn#ale#Fix', ['pbn'],
    \ 'Format PBN files in export format with `pbn fmt -`.')
  catch
  endtry
endif
