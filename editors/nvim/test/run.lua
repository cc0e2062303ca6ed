-- Headless test driver for the Neovim integration, run by
-- tests/tests/editor_nvim.rs as
--   nvim --headless -i NONE -u test/minimal_init.lua -c 'luafile test/run.lua'
-- Environment:
--   PBN_TEST_SCENARIO  which scenario to run (see `scenarios` below)
--   PBN_TEST_FILE      the .pbn file to open
--   PBN_TEST_ARGS      JSON with scenario arguments
--   PBN_TEST_OUT       where to write the JSON result
--   PBN_TEST_TIMEOUT_MS  how long to wait for the server (default 20000)
-- The result is {ok = bool, error = string?, data = ..., log = {...}}.
local out_path = assert(os.getenv('PBN_TEST_OUT'), 'PBN_TEST_OUT is not set')
local scenario = os.getenv('PBN_TEST_SCENARIO') or ''
local file = os.getenv('PBN_TEST_FILE')
local args = vim.json.decode(os.getenv('PBN_TEST_ARGS') or '{}')
local timeout = tonumber(os.getenv('PBN_TEST_TIMEOUT_MS') or '') or 20000
local log = {}

local function note(fmt, ...)
  table.insert(log, string.format(fmt, ...))
end

local function write_result(res)
  res.log = log
  res.nvim_version = tostring(vim.version())
  local f = assert(io.open(out_path, 'w'))
  f:write(vim.json.encode(res))
  f:close()
end

local function wait(what, cond)
  local ok = vim.wait(timeout, cond, 20)
  if not ok then
    error(string.format('timed out after %d ms waiting for %s', timeout, what), 2)
  end
end

-- Opens `file` and waits until the pbn server is attached and initialized.
local function open_with_server(path)
  vim.cmd.edit(vim.fn.fnameescape(path))
  local buf = vim.api.nvim_get_current_buf()
  note('filetype=%s', vim.bo[buf].filetype)
  assert(vim.bo[buf].filetype == 'pbn', 'filetype is ' .. vim.bo[buf].filetype .. ', not pbn')
  local client
  wait('the pbn client to attach', function()
    client = vim.lsp.get_clients({ bufnr = buf, name = 'pbn' })[1]
    return client ~= nil and client.initialized == true
  end)
  note('client %s attached, offset_encoding=%s', client.name, client.offset_encoding)
  return buf, client
end

local function position_of(buf, needle)
  for lnum, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local col = line:find(needle, 1, true)
    if col then
      return lnum - 1, col - 1
    end
  end
  error('text not found in buffer: ' .. needle)
end

local function position_params(buf, client, row, col)
  vim.api.nvim_win_set_cursor(0, { row + 1, col })
  return vim.lsp.util.make_position_params(0, client.offset_encoding)
end

local function diagnostics(buf)
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(list, {
      code = d.code,
      lnum = d.lnum,
      col = d.col,
      end_lnum = d.end_lnum,
      end_col = d.end_col,
      severity = d.severity,
      message = d.message,
      source = d.source,
    })
  end
  table.sort(list, function(a, b)
    return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col)
  end)
  return list
end

local function wait_for_code(buf, code)
  wait('a ' .. code .. ' diagnostic', function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.code == code then
        return true
      end
    end
    return false
  end)
end

local scenarios = {}

-- Neovim 0.11+: lsp/pbn.lua + vim.lsp.enable('pbn').
function scenarios.diagnostics()
  vim.lsp.enable('pbn')
  local buf = open_with_server(file)
  wait_for_code(buf, args.code or 'PBN0003')
  return { diagnostics = diagnostics(buf) }
end

-- The documented 0.8–0.10 fallback: vim.lsp.start() from a FileType
-- autocommand (through require('pbn').setup() on an old Neovim, here called
-- directly since this Neovim is 0.11+).
function scenarios.legacy_start()
  vim.api.nvim_create_autocmd('FileType', {
    pattern = 'pbn',
    callback = function(ev)
      require('pbn').start(ev.buf)
    end,
  })
  local buf = open_with_server(file)
  wait_for_code(buf, args.code or 'PBN0003')
  return { diagnostics = diagnostics(buf) }
end

function scenarios.hover()
  vim.lsp.enable('pbn')
  local buf, client = open_with_server(file)
  local row, col = position_of(buf, args.needle)
  local params = position_params(buf, client, row, col + (args.offset or 0))
  local res, err = vim.lsp.buf_request_sync(buf, 'textDocument/hover', params, timeout)
  assert(res, 'hover request failed: ' .. tostring(err))
  local r = res[client.id]
  assert(r and not r.err, 'hover error: ' .. vim.inspect(r and r.err))
  local contents = r.result and r.result.contents
  local text
  if type(contents) == 'table' then
    text = contents.value or vim.inspect(contents)
  else
    text = contents
  end
  return { row = row, col = col, text = text, range = r.result and r.result.range }
end

-- The code action "Open as RBN" at args.needle: its command runs through
-- require('pbn').convert_game, which opens the RBN in a scratch buffer.
function scenarios.convert()
  vim.lsp.enable('pbn')
  local buf, client = open_with_server(file)
  local row, col = position_of(buf, args.needle)
  vim.api.nvim_win_set_cursor(0, { row + 1, col })
  local params = vim.lsp.util.make_range_params(0, client.offset_encoding)
  params.context = { diagnostics = {} }
  local res, err = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, timeout)
  assert(res, 'codeAction request failed: ' .. tostring(err))
  local r = res[client.id]
  assert(r and not r.err, 'codeAction error: ' .. vim.inspect(r and r.err))
  local titles, command = {}, nil
  for _, a in ipairs(r.result or {}) do
    table.insert(titles, a.title)
    if a.title == args.title then
      command = type(a.command) == 'table' and a.command or a
    end
  end
  assert(command, 'no action ' .. args.title .. ' among ' .. vim.inspect(titles))
  require('pbn').convert_game(command, { client_id = client.id, bufnr = buf })
  local out
  wait('the scratch buffer', function()
    local b = vim.api.nvim_get_current_buf()
    if b ~= buf and vim.api.nvim_buf_get_name(b):find('pbn://', 1, true) then
      out = b
      return true
    end
    return false
  end)
  return {
    titles = titles,
    name = vim.api.nvim_buf_get_name(out),
    buftype = vim.bo[out].buftype,
    text = table.concat(vim.api.nvim_buf_get_lines(out, 0, -1, false), '\n'),
  }
end

function scenarios.definition()
  vim.lsp.enable('pbn')
  local buf, client = open_with_server(file)
  local row, col = position_of(buf, args.needle)
  local params = position_params(buf, client, row, col + (args.offset or 0))
  -- the raw response
  local res = vim.lsp.buf_request_sync(buf, 'textDocument/definition', params, timeout)
  local r = res and res[client.id]
  local result = r and r.result
  if result and result.uri == nil and result[1] then
    result = result[1]
  end
  -- and the editor's own jump
  vim.lsp.buf.definition()
  wait('the cursor to leave the reference', function()
    return vim.api.nvim_win_get_cursor(0)[1] ~= row + 1
  end)
  local cursor = vim.api.nvim_win_get_cursor(0)
  return {
    from = { row, col },
    cursor = { cursor[1] - 1, cursor[2] },
    line = vim.api.nvim_get_current_line(),
    same_buffer = vim.api.nvim_get_current_buf() == buf,
    response = result,
  }
end

function scenarios.format_on_save()
  require('pbn').setup({ format_on_save = true })
  local buf = open_with_server(file)
  local before = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  vim.cmd.write()
  local after = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  return { changed = not vim.deep_equal(before, after), modified = vim.bo[buf].modified }
end

function scenarios.highlight()
  vim.cmd.edit(vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  assert(vim.bo[buf].filetype == 'pbn', 'filetype is ' .. vim.bo[buf].filetype)
  local active = vim.treesitter.highlighter.active[buf] ~= nil
  local parser = vim.treesitter.get_parser(buf, 'pbn')
  parser:parse(true)
  local tree = parser:trees()[1]
  local captures = {}
  for _, pos in ipairs(args.positions or {}) do
    local names = {}
    for _, c in ipairs(vim.treesitter.get_captures_at_pos(buf, pos[1], pos[2])) do
      table.insert(names, c.capture)
    end
    table.insert(captures, { row = pos[1], col = pos[2], captures = names })
  end
  -- the folds query too
  local folds = 0
  local q = vim.treesitter.query.get('pbn', 'folds')
  if q then
    for _ in q:iter_captures(tree:root(), buf, 0, -1) do
      folds = folds + 1
    end
  end
  return {
    highlighter_active = active,
    has_error = tree:root():has_error(),
    root = tree:root():type(),
    captures = captures,
    fold_captures = folds,
    query_files = vim.treesitter.query.get_files('pbn', 'highlights'),
  }
end

local ok, res = xpcall(function()
  local f = scenarios[scenario]
  assert(f, 'unknown scenario: ' .. scenario)
  return f()
end, debug.traceback)
if ok then
  write_result({ ok = true, data = res })
else
  pcall(function()
    for _, c in ipairs(vim.lsp.get_clients()) do
      note('client %s id=%d initialized=%s', c.name, c.id, tostring(c.initialized))
    end
    note('messages: %s', vim.fn.execute('messages'))
  end)
  write_result({ ok = false, error = tostring(res) })
end
vim.cmd('qa!')
