-- Neovim 0.11+ language server configuration for `pbn lsp`.
--
--   vim.lsp.enable('pbn')
--
-- Override any field with vim.lsp.config('pbn', { ... }), e.g. another
-- binary: vim.lsp.config('pbn', { cmd = { '/path/to/pbn', 'lsp' } }).
---@type vim.lsp.Config
return {
  cmd = { 'pbn', 'lsp' },
  filetypes = { 'pbn' },
  root_markers = { 'pbn.toml', '.git' },
  -- Shows the result of the conversion code actions (lua/pbn/init.lua).
  commands = {
    ['pbn.convertGame'] = function(command, ctx)
      require('pbn').convert_game(command, ctx)
    end,
  },
}
