-- Minimal init for the headless editor tests (tests/tests/editor_nvim.rs).
--   PBN_NVIM_RTP    this runtime directory (editors/nvim)
--   PBN_PARSER_DIR  a directory holding parser/pbn.so (optional)
-- The pbn binary is found on $PATH as in a user's set-up.
vim.opt.runtimepath:prepend(assert(os.getenv('PBN_NVIM_RTP'), 'PBN_NVIM_RTP is not set'))
local parser_dir = os.getenv('PBN_PARSER_DIR')
if parser_dir and parser_dir ~= '' then
  vim.opt.runtimepath:append(parser_dir)
end
vim.opt.swapfile = false
vim.opt.shadafile = 'NONE'
vim.opt.more = false
vim.cmd('filetype plugin on')
