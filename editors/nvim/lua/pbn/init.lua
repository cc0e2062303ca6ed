-- Optional helper for the PBN runtime directory.
--
--   require('pbn').setup({
--     format_on_save = true,       -- format with `pbn lsp` (export format) on :write
--     lsp = true,                  -- start `pbn lsp` for pbn buffers (default true)
--     cmd = { 'pbn', 'lsp' },      -- how to start the server
--     root_markers = { 'pbn.toml', '.git' },
--     settings = nil,              -- initializationOptions sent to the server
--   })
--
-- On Neovim 0.11+ the server is configured by lsp/pbn.lua and started with
-- vim.lsp.enable('pbn'); on 0.8–0.10 setup() starts it itself with
-- vim.lsp.start() from a FileType autocommand.
local M = {}

local defaults = {
  lsp = true,
  format_on_save = false,
  format_timeout_ms = 3000,
  cmd = { 'pbn', 'lsp' },
  root_markers = { 'pbn.toml', '.git' },
  settings = nil,
}

M.options = vim.deepcopy(defaults)

local function has_011()
  return vim.fn.has('nvim-0.11') == 1 and vim.lsp.config ~= nil and vim.lsp.enable ~= nil
end

local function clients(bufnr)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = bufnr, name = 'pbn' })
  end
  return vim.lsp.get_active_clients({ bufnr = bufnr, name = 'pbn' }) -- 0.8–0.9
end

--- The directory holding the nearest root marker above `bufnr`'s file, or
--- the file's own directory.
function M.root_dir(bufnr, markers)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if vim.fs.root then -- 0.10+
    local root = vim.fs.root(bufnr, markers)
    if root then
      return root
    end
  else
    local path = name ~= '' and vim.fs.dirname(name) or vim.loop.cwd()
    local found = vim.fs.find(markers, { upward = true, path = path })[1]
    if found then
      return vim.fs.dirname(found)
    end
  end
  return name ~= '' and vim.fs.dirname(name) or vim.loop.cwd()
end

--- Starts (or reuses) the pbn language server for `bufnr` (Neovim 0.8+).
function M.start(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local o = M.options
  return vim.lsp.start({
    name = 'pbn',
    cmd = o.cmd,
    root_dir = M.root_dir(bufnr, o.root_markers),
    init_options = o.settings,
    commands = { ['pbn.convertGame'] = M.convert_game },
  }, { bufnr = bufnr })
end

--- Client-side handler of the server's `pbn.convertGame` (the command of
--- the code actions "Copy game as forum notation", "Open as RBN/LIN"): runs
--- it on the server and shows its result, forum notation copied to the `+`
--- and unnamed registers, RBN and LIN in a scratch buffer in a new window;
--- what the target cannot hold is reported with vim.notify.
function M.convert_game(command, ctx)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  if not client then
    return
  end
  local params = { command = command.command, arguments = command.arguments }
  local function show(err, r)
    if err or type(r) ~= 'table' then
      vim.notify('pbn: ' .. (err and err.message or 'no result'), vim.log.levels.ERROR)
      return
    end
    if r.action == 'copy' then
      pcall(vim.fn.setreg, '+', r.text)
      vim.fn.setreg('"', r.text)
      vim.notify('pbn: ' .. r.title .. ': copied to the + and " registers')
    else
      vim.cmd('new')
      local buf = vim.api.nvim_get_current_buf()
      vim.bo[buf].buftype = 'nofile'
      vim.bo[buf].bufhidden = 'wipe'
      vim.bo[buf].swapfile = false
      vim.api.nvim_buf_set_lines(buf, 0, -1, false, vim.split(r.text, '\n', { plain = true }))
      pcall(vim.api.nvim_buf_set_name, buf, 'pbn://' .. r.format .. '/' .. buf)
    end
    if type(r.losses) == 'table' and #r.losses > 0 then
      vim.notify('pbn: not carried over to ' .. r.format:upper() .. ':\n' .. table.concat(r.losses, '\n'),
        vim.log.levels.WARN)
    end
  end
  if vim.fn.has('nvim-0.11') == 1 then
    client:request('workspace/executeCommand', params, show, ctx.bufnr)
  else
    client.request('workspace/executeCommand', params, show, ctx.bufnr)
  end
end

--- Formats `bufnr` synchronously with the pbn server (export format).
function M.format(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  if #clients(bufnr) == 0 then
    return false
  end
  vim.lsp.buf.format({ bufnr = bufnr, name = 'pbn', async = false, timeout_ms = M.options.format_timeout_ms })
  return true
end

function M.setup(opts)
  M.options = vim.tbl_deep_extend('force', vim.deepcopy(defaults), opts or {})
  local o = M.options
  local group = vim.api.nvim_create_augroup('pbn', { clear = true })

  -- The filetype, for set-ups that add this directory to 'runtimepath' after
  -- ftdetect/ has been sourced (e.g. from a plugin manager's config hook).
  if vim.filetype and vim.filetype.add then
    vim.filetype.add({ extension = { pbn = 'pbn', PBN = 'pbn' } })
  end

  if o.lsp then
    if has_011() then
      local overrides = {}
      if not vim.deep_equal(o.cmd, defaults.cmd) then
        overrides.cmd = o.cmd
      end
      if not vim.deep_equal(o.root_markers, defaults.root_markers) then
        overrides.root_markers = o.root_markers
      end
      if o.settings ~= nil then
        overrides.init_options = o.settings
      end
      if next(overrides) then
        vim.lsp.config('pbn', overrides)
      end
      vim.lsp.enable('pbn')
    else
      vim.api.nvim_create_autocmd('FileType', {
        group = group,
        pattern = 'pbn',
        callback = function(args)
          M.start(args.buf)
        end,
      })
      -- buffers already open
      for _, buf in ipairs(vim.api.nvim_list_bufs()) do
        if vim.api.nvim_buf_is_loaded(buf) and vim.bo[buf].filetype == 'pbn' then
          M.start(buf)
        end
      end
    end
  end

  if o.format_on_save then
    vim.api.nvim_create_autocmd('BufWritePre', {
      group = group,
      callback = function(args)
        if vim.bo[args.buf].filetype == 'pbn' then
          M.format(args.buf)
        end
      end,
    })
  end
  return M
end

return M
