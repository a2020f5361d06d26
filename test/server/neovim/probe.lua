-- Drives dist/server.js from Neovim 0.7 (a real, independent LSP client) headless:
-- opens an HLO file, waits for diagnostics, requests a hover, a definition and completions, renames
-- an instruction by applying the server's edit to the buffer, and writes what it saw as JSON.
-- Inputs come from the environment: XLA_SERVER, XLA_FILE, XLA_LINE, XLA_CHAR (the hover),
-- XLA_DEF_LINE, XLA_DEF_CHAR (the definition), XLA_COMPLETE_LINE, XLA_COMPLETE_CHAR (the
-- completion), XLA_RENAME_LINE, XLA_RENAME_CHAR (the rename), XLA_OUT.
local server = os.getenv('XLA_SERVER')
local file = os.getenv('XLA_FILE')
local out = os.getenv('XLA_OUT')
local line = tonumber(os.getenv('XLA_LINE'))
local char = tonumber(os.getenv('XLA_CHAR'))
local def_line = tonumber(os.getenv('XLA_DEF_LINE'))
local def_char = tonumber(os.getenv('XLA_DEF_CHAR'))

local result = { diagnostics = {}, hover = vim.NIL, definitions = {}, completions = {}, renamed = {} }
local function finish()
  local f = io.open(out, 'w')
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd('qa!')
end

local id = vim.lsp.start_client({
  name = 'xla-layout',
  cmd = { 'node', '--max-semi-space-size=8', server, '--stdio' },
  root_dir = vim.fn.fnamemodify(file, ':h'),
})
result.client = id ~= nil
vim.cmd('edit ' .. file)
vim.bo.filetype = 'hlo'
vim.lsp.buf_attach_client(0, id)

result.got_diagnostics = vim.wait(15000, function() return #vim.diagnostic.get(0) > 0 end, 20)
for _, d in ipairs(vim.diagnostic.get(0)) do
  local lsp = (d.user_data or {}).lsp or {}
  table.insert(result.diagnostics, {
    lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
    severity = d.severity, source = d.source, message = d.message, code = lsp.code,
  })
end

local params = { textDocument = { uri = vim.uri_from_bufnr(0) }, position = { line = line, character = char } }
local responses = vim.lsp.buf_request_sync(0, 'textDocument/hover', params, 15000)
for _, r in pairs(responses or {}) do
  if r.result and r.result.contents then result.hover = r.result.contents.value end
end

local def_params = { textDocument = { uri = vim.uri_from_bufnr(0) }, position = { line = def_line, character = def_char } }
local defs = vim.lsp.buf_request_sync(0, 'textDocument/definition', def_params, 15000)
for _, r in pairs(defs or {}) do
  for _, d in ipairs(r.result or {}) do
    -- Location or LocationLink, whichever the client asked for.
    local range = d.targetSelectionRange or d.range
    table.insert(result.definitions, { uri = d.targetUri or d.uri, line = range.start.line })
  end
end

local complete_params = {
  textDocument = { uri = vim.uri_from_bufnr(0) },
  position = { line = tonumber(os.getenv('XLA_COMPLETE_LINE')), character = tonumber(os.getenv('XLA_COMPLETE_CHAR')) },
}
local completions = vim.lsp.buf_request_sync(0, 'textDocument/completion', complete_params, 15000)
for _, r in pairs(completions or {}) do
  for _, item in ipairs((r.result or {}).items or r.result or {}) do table.insert(result.completions, item.label) end
end

-- Rename as :lua vim.lsp.buf.rename() would, with the edit applied to the buffer.
local rename_params = {
  textDocument = { uri = vim.uri_from_bufnr(0) },
  position = { line = tonumber(os.getenv('XLA_RENAME_LINE')), character = tonumber(os.getenv('XLA_RENAME_CHAR')) },
  newName = 'input',
}
local renames = vim.lsp.buf_request_sync(0, 'textDocument/rename', rename_params, 15000)
for _, r in pairs(renames or {}) do
  if r.result then vim.lsp.util.apply_workspace_edit(r.result, 'utf-16') end
end
result.renamed = vim.api.nvim_buf_get_lines(0, 0, -1, false)
finish()
