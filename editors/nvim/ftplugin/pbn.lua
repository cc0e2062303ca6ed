-- Buffer settings for PBN files.
if vim.b.did_ftplugin then
  return
end
vim.b.did_ftplugin = 1

-- `;` comments to the end of the line (PBN §3.8); `{ ... }` comments too.
vim.bo.commentstring = '; %s'
vim.bo.comments = ':;'

local undo = 'setlocal commentstring< comments<'

-- Tree-sitter highlighting when the pbn parser is installed (parser/pbn.so
-- in a 'runtimepath' directory); opt out with vim.g.pbn_treesitter = false.
if vim.g.pbn_treesitter ~= false and vim.treesitter and vim.treesitter.start then
  local ok_lang = pcall(function()
    if vim.treesitter.language.add then
      -- 0.10+: returns nil (0.11: nil, err) when the parser is missing
      assert(vim.treesitter.language.add('pbn'))
    else
      vim.treesitter.language.require_language('pbn')
    end
  end)
  if ok_lang and pcall(vim.treesitter.start, 0, 'pbn') then
    -- Folds from queries/pbn/folds.scm (opt in: vim.g.pbn_treesitter_folds = true).
    if vim.g.pbn_treesitter_folds then
      vim.wo.foldmethod = 'expr'
      vim.wo.foldexpr = 'v:lua.vim.treesitter.foldexpr()'
      vim.wo.foldlevel = 99
    end
    undo = undo .. ' | lua pcall(vim.treesitter.stop)'
  end
end

vim.b.undo_ftplugin = undo
