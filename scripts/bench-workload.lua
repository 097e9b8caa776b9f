-- One scripts/bench workload for wrk: builds DynamoDB requests with varying keys and prints the
-- run's figures as one JSON line. Settings come from the environment (scripts/bench sets them):
--   BENCH_WORKLOAD  get | put | update | query | scan | batch | mix | transact-write | transact-get
--                   | partiql-get | partiql-query | partiql-update (GetItem, Query and UpdateItem's
--                   work as PartiQL statements with parameters)
--   BENCH_TABLE     table name;  BENCH_ITEMS  items preloaded (partitions of 10 items)
--   BENCH_CAPACITY  TOTAL or INDEXES: every request also asks for its ConsumedCapacity
--   BENCH_GSI       single | multi: the table's global index (scripts/bench --gsi); items carry
--                   its key attributes, and index-query reads one of its partitions
--   BENCH_VECTORS   dimensions of the items' vectors (scripts/bench --vectors): vector-search
--                   asks SearchVectors for the 10 nearest of a random vector (COSINE)

local workload = os.getenv("BENCH_WORKLOAD") or "get"
local table_name = os.getenv("BENCH_TABLE") or "bench"
local items = tonumber(os.getenv("BENCH_ITEMS") or "100000")
local partitions = math.max(1, math.floor(items / 10))
local gsi = os.getenv("BENCH_GSI") or ""

local headers = {
  ["Content-Type"] = "application/x-amz-json-1.0",
  ["X-Amz-Date"] = "20260101T000000Z",
  -- Any credentials: none of the servers measured checks signatures.
  ["Authorization"] = "AWS4-HMAC-SHA256 Credential=bench/20260101/us-east-1/dynamodb/aws4_request, "
    .. "SignedHeaders=host, Signature=0",
}

local function target(operation)
  headers["X-Amz-Target"] = "DynamoDB_20120810." .. operation
end

-- The same ~200-byte item (DynamoDB size) scripts/bench preloads.
local padding = string.rep("x", 100)
local function key_json(i)
  return string.format('"pk":{"S":"p%07d"},"sk":{"S":"s%02d"}', math.floor(i / 10), i % 10)
end
-- The index key values of item i, as scripts/bench's gsi_attributes makes them.
local function gsi_json(i)
  local tenant = string.format("t%05d", math.floor(i / 40))
  local region = string.format("r%d", math.floor(i / 10) % 4)
  local rank = string.format("%02d", i % 10)
  if gsi == "single" then
    return string.format(',"gpk":{"S":"%s#%s"},"gsk":{"S":"%s#x"}', tenant, region, rank)
  elseif gsi == "multi" then
    return string.format(',"tenant":{"S":"%s"},"region":{"S":"%s"},"rank":{"S":"%s"},'
      .. '"kind":{"S":"x"}', tenant, region, rank)
  end
  return ""
end
local function item_json(i, version)
  return string.format('{%s,"name":{"S":"Name %d"},"email":{"S":"user%d@example.com"},'
    .. '"n":{"N":"%d"},"active":{"BOOL":true},"bio":{"S":"%s"}%s}', key_json(i), i, i, version,
    padding, gsi_json(i))
end

local counter = 0
local function random_item() return math.random(0, items - 1) end

local builders = {}
builders.get = function()
  target("GetItem")
  return string.format('{"TableName":"%s","Key":{%s}}', table_name, key_json(random_item()))
end
builders.put = function()
  counter = counter + 1
  target("PutItem")
  return string.format('{"TableName":"%s","Item":%s}', table_name, item_json(random_item(), counter))
end
builders.update = function()
  target("UpdateItem")
  return string.format('{"TableName":"%s","Key":{%s},"UpdateExpression":"SET #m = :m ADD #c :one",'
    .. '"ExpressionAttributeNames":{"#m":"name","#c":"count"},'
    .. '"ExpressionAttributeValues":{":m":{"S":"renamed %d"},":one":{"N":"1"}}}',
    table_name, key_json(random_item()), counter)
end
builders.query = function()
  target("Query")
  return string.format('{"TableName":"%s","KeyConditionExpression":"pk = :p",'
    .. '"ExpressionAttributeValues":{":p":{"S":"p%07d"}}}', table_name,
    math.random(0, partitions - 1))
end
-- One partition of the global index (10 items), by the key attributes of --gsi.
builders["index-query"] = function()
  target("Query")
  local p = math.random(0, partitions - 1)
  local tenant = string.format("t%05d", math.floor(p / 4))
  local region = string.format("r%d", p % 4)
  if gsi == "single" then
    return string.format('{"TableName":"%s","IndexName":"gsi","KeyConditionExpression":"gpk = :p",'
      .. '"ExpressionAttributeValues":{":p":{"S":"%s#%s"}}}', table_name, tenant, region)
  end
  return string.format('{"TableName":"%s","IndexName":"gsi",'
    .. '"KeyConditionExpression":"tenant = :t AND #r = :r",'
    .. '"ExpressionAttributeNames":{"#r":"region"},'
    .. '"ExpressionAttributeValues":{":t":{"S":"%s"},":r":{"S":"%s"}}}', table_name, tenant, region)
end
-- The same reads and update as PartiQL statements through ExecuteStatement, with parameters.
local function statement_json(statement, parameters)
  return string.format('{"Statement":"%s","Parameters":[%s]}', statement, parameters)
end
builders["partiql-get"] = function()
  target("ExecuteStatement")
  local i = random_item()
  return statement_json(string.format('SELECT * FROM \\"%s\\" WHERE pk = ? AND sk = ?', table_name),
    string.format('{"S":"p%07d"},{"S":"s%02d"}', math.floor(i / 10), i % 10))
end
builders["partiql-query"] = function()
  target("ExecuteStatement")
  return statement_json(string.format('SELECT * FROM \\"%s\\" WHERE pk = ?', table_name),
    string.format('{"S":"p%07d"}', math.random(0, partitions - 1)))
end
builders["partiql-update"] = function()
  counter = counter + 1
  target("ExecuteStatement")
  local i = random_item()
  return statement_json(string.format('UPDATE \\"%s\\" SET name = ? WHERE pk = ? AND sk = ?',
    table_name), string.format('{"S":"renamed %d"},{"S":"p%07d"},{"S":"s%02d"}', counter,
    math.floor(i / 10), i % 10))
end
-- Pages of 100 items (~20 KB): 1 MB pages take one peer longer than wrk's timeout under load.
local scan_start = nil  -- the last page's LastEvaluatedKey: each request reads the next page
builders.scan = function()
  target("Scan")
  if scan_start then
    return string.format('{"TableName":"%s","Limit":100,"ExclusiveStartKey":%s}', table_name,
      scan_start)
  end
  return string.format('{"TableName":"%s","Limit":100}', table_name)
end
builders.batch = function()
  target("BatchWriteItem")
  counter = counter + 1
  local first = math.random(0, math.max(0, items - 25))
  local puts = {}
  for i = first, first + 24 do
    puts[#puts + 1] = string.format('{"PutRequest":{"Item":%s}}', item_json(i, counter))
  end
  return string.format('{"RequestItems":{"%s":[%s]}}', table_name, table.concat(puts, ","))
end
-- Four consecutive items (distinct keys), put or read together in one transaction.
builders["transact-write"] = function()
  target("TransactWriteItems")
  counter = counter + 1
  local first = math.random(0, math.max(0, items - 4))
  local actions = {}
  for i = first, first + 3 do
    actions[#actions + 1] = string.format('{"Put":{"TableName":"%s","Item":%s}}', table_name,
      item_json(i, counter))
  end
  return string.format('{"TransactItems":[%s]}', table.concat(actions, ","))
end
builders["transact-get"] = function()
  target("TransactGetItems")
  local first = math.random(0, math.max(0, items - 4))
  local gets = {}
  for i = first, first + 3 do
    gets[#gets + 1] = string.format('{"Get":{"TableName":"%s","Key":{%s}}}', table_name, key_json(i))
  end
  return string.format('{"TransactItems":[%s]}', table.concat(gets, ","))
end
local vector_dimensions = tonumber(os.getenv("BENCH_VECTORS") or "0")
builders["vector-search"] = function()
  target("SearchVectors")
  local elements = {}
  for d = 1, vector_dimensions do
    elements[d] = string.format('{"N":"%.6f"}', math.random() * 2 - 1)
  end
  return string.format('{"TableName":"%s","IndexName":"emb","TopK":10,"SearchVector":[%s]}',
    table_name, table.concat(elements, ","))
end
builders.mix = function()
  if math.random() < 0.5 then return builders.get() end
  return builders.put()
end

local build = builders[workload]
if build == nil then error("unknown BENCH_WORKLOAD " .. workload) end
local capacity = os.getenv("BENCH_CAPACITY")
if capacity ~= nil and capacity ~= "" then
  local plain = build
  build = function()
    local body = plain()
    return body:sub(1, -2) .. ',"ReturnConsumedCapacity":"' .. capacity .. '"}'
  end
end

local thread_number = 0
function setup(thread)
  thread_number = thread_number + 1
  thread:set("seed", thread_number)
end

-- Requests are built before the run, so the load generator spends its CPU on HTTP rather than
-- on Lua string formatting (that halved wrk's CPU per GetItem, leaving more of a shared machine
-- to the server). The pool's keys are drawn at random from the whole table; with up to 131072
-- of them, a large table's reads still land all over its memory. Scan pages depend on the last
-- answer, so they are built as they go.
local pool = {}
local pool_size = math.min(items, 131072)
if workload == "batch" then pool_size = math.min(pool_size, 2048) end  -- ~6 KB each
if workload == "vector-search" then pool_size = math.min(pool_size, 64) end  -- ~10 KB each
local next_request = 0

function init(args)
  math.randomseed(os.time() * 1000 + (seed or 0))
  if workload == "scan" then return end
  for i = 1, pool_size do
    local body = build()
    pool[i] = wrk.format("POST", "/", headers, body)
  end
end

function request()
  if workload == "scan" then return wrk.format("POST", "/", headers, build()) end
  next_request = next_request % pool_size + 1
  return pool[next_request]
end

if workload == "scan" then
  function response(status, _, body)
    if status ~= 200 then return end
    scan_start = string.match(body, '"LastEvaluatedKey":(%b{})')
  end
end

function done(summary, latency, _)
  local errors = summary.errors
  io.write(string.format('BENCH_JSON {"requests":%d,"duration_us":%d,"bytes":%d,'
    .. '"errors":%d,"p50_us":%d,"p99_us":%d,"p999_us":%d}\n', summary.requests, summary.duration,
    summary.bytes, errors.connect + errors.read + errors.write + errors.status + errors.timeout,
    latency:percentile(50), latency:percentile(99), latency:percentile(99.9)))
end
