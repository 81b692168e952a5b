-- Pandoc filter for docs/render: links between the course texts, made to
-- work on the rendered site.
--
-- A text links to a file of the kit by its path relative to the text, as on
-- GitHub: ../../handbook.md#a-section, ../02-verifier/README.md,
-- ../../kernel-base/README.md. On the site handbook.md is index.html and
-- labs/NN-name/README.md is labs/NN-name.html, so links to those become
-- links to the pages. Every other file of the kit stays a link to the file
-- itself, in the checkout. External links, "#fragment" links and links that
-- leave the kit are kept as written.
--
-- docs/render says where the text and its page are, in the environment:
--   DOCS_SRC     the text, relative to the kit (labs/01-helper/README.md)
--   DOCS_PAGE    its page, relative to the site (labs/01-helper.html)
--   DOCS_TO_KIT  the kit's top folder, relative to the page's folder

local src = os.getenv("DOCS_SRC") or ""
local page = os.getenv("DOCS_PAGE") or ""
local to_kit = os.getenv("DOCS_TO_KIT") or "."

local function split(path)
  local parts = {}
  for part in path:gmatch("[^/]+") do
    parts[#parts + 1] = part
  end
  return parts
end

-- The folder part of a path, as a list of names.
local function folder(path)
  local parts = split(path)
  parts[#parts] = nil
  return parts
end

-- rel resolved from the folder base (a list); nil when it leaves the top.
local function resolve(base, rel)
  local parts = { table.unpack(base) }
  for _, part in ipairs(split(rel)) do
    if part == ".." then
      if #parts == 0 then
        return nil
      end
      parts[#parts] = nil
    elseif part ~= "." then
      parts[#parts + 1] = part
    end
  end
  return table.concat(parts, "/")
end

-- The path from the folder from (a list) to the path to (both relative to
-- the same top).
local function relative(from, to)
  local target = split(to)
  local common = 0
  while common < #from and common < #target - 1 and from[common + 1] == target[common + 1] do
    common = common + 1
  end
  local out = {}
  for _ = common + 1, #from do
    out[#out + 1] = ".."
  end
  for i = common + 1, #target do
    out[#out + 1] = target[i]
  end
  return table.concat(out, "/")
end

-- The site's page for a text of the kit, or nil.
local function page_of(path)
  if path == "handbook.md" then
    return "index.html"
  end
  local lab = path:match("^labs/([^/]+)/README%.md$")
  if lab then
    return "labs/" .. lab .. ".html"
  end
  return nil
end

local function rewrite(target)
  -- A scheme (https:, mailto:), an absolute path, or a fragment alone.
  if target:match("^%a[%w+.-]*:") or target:match("^/") or target:match("^#") or target == "" then
    return target
  end
  local path, rest = target:match("^([^#?]*)(.*)$")
  local trailing = path:match("/$") and "/" or ""
  local file = resolve(folder(src), path)
  if not file then
    return target
  end
  local site_page = page_of(file)
  if site_page then
    return relative(folder(page), site_page) .. rest
  end
  if file == "" then
    return to_kit .. "/" .. rest
  end
  return to_kit .. "/" .. file .. trailing .. rest
end

function Link(el)
  el.target = rewrite(el.target)
  return el
end

function Image(el)
  el.src = rewrite(el.src)
  return el
end
