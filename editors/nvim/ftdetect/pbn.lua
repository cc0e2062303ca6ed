-- Registers the `pbn` filetype for Portable Bridge Notation files.
-- Neovim sources ftdetect/*.lua from every 'runtimepath' entry.
if vim.filetype and vim.filetype.add then
  vim.filetype.add({ extension = { pbn = 'pbn', PBN = 'pbn' } })
else
  vim.cmd([[autocmd BufRead,BufNewFile *.pbn,*.PBN setfiletype pbn]])
end
