// ddbd's web console: tables, indexes, items, Query and Scan, vector search, Time to Live, streams
// and Contributor Insights, through the DynamoDB API of the server that serves it (POST / with
// X-Amz-Target), as any SDK would, and for the hot keys ddbd's own GET
// /_ddbd/contributor-insights/<table>.
// It never reads a whole table: every listing is a page (Limit) with a next-page key.
import { canSign, signedHeaders } from "./sigv4.js";
import { fromDynamoDbText, fromPlainText, hasPlainForm, preview, toPlainText } from "./dynamodb_json.js";

const kPageSize = 25;
const main = document.getElementById("main");
const dialog = document.getElementById("dialog");

// ---- Connection: the access key (and secret, when the server verifies signatures) and region.

const connection = JSON.parse(sessionStorage.getItem("ddbd-connection") || "null") ||
  { accessKeyId: "console", secretAccessKey: "", region: "us-east-1" };

function showConnection() {
  document.getElementById("connection").textContent =
    `${connection.accessKeyId} · ${connection.region}${connection.secretAccessKey ? " · signed" : ""}`;
}

class ApiError extends Error {
  constructor(type, message) {
    super(`${type}: ${message}`);
    this.type = type;
  }
}

async function api(operation, request = {}, service = "DynamoDB_20120810") {
  const body = JSON.stringify(request);
  const headers = await signedHeaders({ ...connection, host: location.host,
    target: `${service}.${operation}`, body });
  const response = await fetch("/", { method: "POST", headers, body });
  const text = await response.text();
  let answer = {};
  try { answer = text ? JSON.parse(text) : {}; } catch { answer = { message: text }; }
  if (!response.ok) {
    const type = (answer.__type || `HTTP ${response.status}`).split("#").pop();
    throw new ApiError(type, answer.message || answer.Message || text);
  }
  return answer;
}
const streams = (operation, request) => api(operation, request, "DynamoDBStreams_20120810");

// A GET of ddbd's own (not DynamoDB's) `path`, signed as the API calls are.
async function ddbdGet(path, query = "") {
  const headers = await signedHeaders({ ...connection, host: location.host, method: "GET", path, query });
  const response = await fetch(query ? `${path}?${query}` : path, { headers });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new ApiError((answer.__type || `HTTP ${response.status}`).split("#").pop(), answer.message || "");
  }
  return answer;
}

const kAuthErrors = ["UnrecognizedClientException", "InvalidSignatureException",
  "MissingAuthenticationTokenException", "IncompleteSignatureException"];

// ---- DOM helpers.

function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(element.dataset, value);
    else element.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

function toast(message, bad = false) {
  const note = h("div", { class: bad ? "bad" : "" }, message);
  document.getElementById("toast").append(note);
  setTimeout(() => note.remove(), bad ? 8000 : 3000);
}

function bytes(size) {
  if (size < 1024) return `${size} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = size;
  let unit = -1;
  do { value /= 1024; unit++; } while (value >= 1024 && unit < units.length - 1);
  return `${value.toFixed(1)} ${units[unit]}`;
}

const keyText = (schema, definitions) => (role) => {
  const key = (schema || []).find((k) => k.KeyType === role);
  if (!key) return "";
  const type = (definitions || []).find((d) => d.AttributeName === key.AttributeName);
  return `${key.AttributeName} (${type ? type.AttributeType : "?"})`;
};

// A dialog with `content`; resolves when it closes. Esc closes it (the browser's own dialog).
function openDialog(...content) {
  dialog.replaceChildren(...content);
  dialog.showModal();
  const first = dialog.querySelector("input, select, textarea, button");
  if (first) first.focus();
  return new Promise((resolve) => dialog.addEventListener("close", resolve, { once: true }));
}

// Runs `work`, reporting failure; an authentication failure opens the connection dialog.
async function attempt(work) {
  try {
    return await work();
  } catch (error) {
    toast(error.message, true);
    if (error instanceof ApiError && kAuthErrors.includes(error.type)) {
      editConnection("This server verifies signatures: enter an access key it knows.");
    }
    throw error;
  }
}

function editConnection(reason = "") {
  const field = (label, name, type = "text") =>
    h("label", {}, label, h("input", { name, type, value: connection[name] || "", autocomplete: "off" }));
  const form = h("form", { method: "dialog" },
    h("h1", {}, "Connection"),
    reason ? h("p", { class: "bad" }, reason) : null,
    h("p", { class: "muted" }, "Requests are signed with this access key and region. The secret " +
      "is needed only when ddbd runs with --auth-keys; it stays in this tab's session storage."),
    !canSign() ? h("p", { class: "bad" }, "This page is not a secure context, so it cannot sign: " +
      "open it on localhost or over HTTPS to use a secret.") : null,
    h("div", { class: "row" }, field("Access key id", "accessKeyId"),
      field("Secret access key", "secretAccessKey", "password"), field("Region", "region")),
    h("div", { class: "row" }, h("button", { class: "primary", type: "submit" }, "Save"),
      h("button", { type: "button", onclick: () => dialog.close() }, "Cancel")));
  form.addEventListener("submit", () => {
    const data = new FormData(form);
    connection.accessKeyId = data.get("accessKeyId").trim() || "console";
    connection.secretAccessKey = data.get("secretAccessKey");
    connection.region = data.get("region").trim() || "us-east-1";
    sessionStorage.setItem("ddbd-connection", JSON.stringify(connection));
    showConnection();
    route(true);
  });
  openDialog(form);
}

// ---- Tables.

async function describeAll(names) {
  const described = [];
  for (let i = 0; i < names.length; i += 8) {
    const batch = names.slice(i, i + 8).map((TableName) =>
      api("DescribeTable", { TableName }).then((r) => r.Table, (e) => ({ TableName, error: e.message })));
    described.push(...await Promise.all(batch));
  }
  return described;
}

// Each navigation's number: a view whose data arrives after the user moved on is not shown.
let navigation = 0;

async function showTables(token) {
  const names = [];
  let start;
  do {
    const page = await attempt(() => api("ListTables", start ? { ExclusiveStartTableName: start } : {}));
    names.push(...page.TableNames);
    start = page.LastEvaluatedTableName;
  } while (start && names.length < 1000);
  const tables = await describeAll(names);
  if (token !== navigation) return;
  const rows = tables.map((t) => {
    if (t.error) return h("tr", {}, h("td", {}, t.TableName), h("td", { colspan: 7, class: "bad" }, t.error));
    const key = keyText(t.KeySchema, t.AttributeDefinitions);
    const indexes = [...(t.GlobalSecondaryIndexes || []), ...(t.LocalSecondaryIndexes || [])]
      .map((i) => i.IndexName).join(", ");
    return h("tr", {},
      h("td", {}, h("a", { href: `#/table/${encodeURIComponent(t.TableName)}` }, t.TableName)),
      h("td", {}, t.TableStatus), h("td", {}, key("HASH")), h("td", {}, key("RANGE")),
      h("td", {}, indexes), h("td", {}, String(t.ItemCount ?? "")), h("td", {}, bytes(t.TableSizeBytes || 0)),
      h("td", {}, h("button", { class: "danger", type: "button", "aria-label": `Delete table ${t.TableName}`,
        onclick: () => deleteTable(t.TableName) }, "Delete")));
  });
  main.replaceChildren(
    h("h1", {}, "Tables"),
    h("div", { class: "row" },
      h("button", { class: "primary", type: "button", id: "create-table", onclick: createTable }, "Create table"),
      h("button", { type: "button", onclick: () => route(true) }, "Refresh")),
    tables.length === 0 ? h("p", { class: "muted" }, "No tables yet.") :
      h("table", { class: "grid", id: "tables" },
        h("thead", {}, h("tr", {}, ["Name", "Status", "Partition key", "Sort key", "Indexes", "Items",
          "Size", ""].map((c) => h("th", {}, c)))),
        h("tbody", {}, rows)));
}

function keyFields(prefix, label, optional) {
  return h("div", { class: "row" },
    h("label", {}, `${label} name${optional ? " (optional)" : ""}`,
      h("input", { name: `${prefix}Name`, required: !optional, pattern: "[a-zA-Z0-9_.\\-]+" })),
    h("label", {}, "Type", h("select", { name: `${prefix}Type` },
      h("option", { value: "S" }, "String"), h("option", { value: "N" }, "Number"),
      h("option", { value: "B" }, "Binary"))));
}

// KeySchema (and the AttributeDefinitions it needs) from a form's key fields: `hash` and `range`
// are the fields' prefixes (keyFields).
function keysFrom(data, definitions, hash = "pk", range = "sk") {
  const schema = [];
  for (const [prefix, role] of [[hash, "HASH"], [range, "RANGE"]]) {
    const name = (data.get(`${prefix}Name`) || "").trim();
    if (!name) continue;
    schema.push({ AttributeName: name, KeyType: role });
    if (!definitions.some((d) => d.AttributeName === name)) {
      definitions.push({ AttributeName: name, AttributeType: data.get(`${prefix}Type`) });
    }
  }
  return schema;
}

function createTable() {
  const form = h("form", { method: "dialog", id: "create-table-form" },
    h("h1", {}, "Create table"),
    h("div", { class: "row" }, h("label", {}, "Table name",
      h("input", { name: "TableName", required: true, minlength: 3, maxlength: 255, pattern: "[a-zA-Z0-9_.\\-]+" }))),
    keyFields("pk", "Partition key", false), keyFields("sk", "Sort key", true),
    h("h2", {}, "Indexes (optional)"),
    h("p", { class: "muted" }, "A local index can only be made with its table; global ones can " +
      "also be added later. Both project every attribute."),
    h("div", { class: "row" }, h("label", {}, "Global index name",
      h("input", { name: "gsiName", id: "gsi-name", pattern: "[a-zA-Z0-9_.\\-]+" }))),
    keyFields("gpk", "Its partition key", true), keyFields("gsk", "Its sort key", true),
    h("div", { class: "row" }, h("label", {}, "Local index name",
      h("input", { name: "lsiName", id: "lsi-name", pattern: "[a-zA-Z0-9_.\\-]+" }))),
    keyFields("lsk", "Its own sort key", true),
    h("div", { class: "row" },
      h("label", {}, "Capacity", h("select", { name: "BillingMode" },
        h("option", { value: "PAY_PER_REQUEST" }, "On-demand"),
        h("option", { value: "PROVISIONED" }, "Provisioned (5 read, 5 write)"))),
      h("label", {}, "Stream", h("select", { name: "Stream" },
        h("option", { value: "" }, "Off"),
        ...["NEW_AND_OLD_IMAGES", "NEW_IMAGE", "OLD_IMAGE", "KEYS_ONLY"].map((v) => h("option", { value: v }, v))))),
    h("div", { class: "row" }, h("button", { class: "primary", type: "submit" }, "Create"),
      h("button", { type: "button", onclick: () => dialog.close() }, "Cancel")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const definitions = [];
    const request = { TableName: data.get("TableName").trim(), KeySchema: keysFrom(data, definitions),
      AttributeDefinitions: definitions, BillingMode: data.get("BillingMode") };
    const provisioned = { ReadCapacityUnits: 5, WriteCapacityUnits: 5 };
    if (request.BillingMode === "PROVISIONED") request.ProvisionedThroughput = provisioned;
    const all = { ProjectionType: "ALL" };
    if (data.get("gsiName").trim()) {
      const index = { IndexName: data.get("gsiName").trim(),
        KeySchema: keysFrom(data, definitions, "gpk", "gsk"), Projection: all };
      if (request.BillingMode === "PROVISIONED") index.ProvisionedThroughput = provisioned;
      request.GlobalSecondaryIndexes = [index];
    }
    if (data.get("lsiName").trim()) {
      const range = keysFrom(data, definitions, "", "lsk");
      request.LocalSecondaryIndexes = [{ IndexName: data.get("lsiName").trim(),
        KeySchema: [request.KeySchema[0], ...range], Projection: all }];
    }
    if (data.get("Stream")) request.StreamSpecification = { StreamEnabled: true, StreamViewType: data.get("Stream") };
    await attempt(() => api("CreateTable", request));
    dialog.close();
    toast(`Created ${request.TableName}`);
    location.hash = `#/table/${encodeURIComponent(request.TableName)}`;
  });
  openDialog(form);
}

async function confirmText(question, expected) {
  const form = h("form", { method: "dialog" }, h("p", {}, question),
    h("label", {}, `Type ${expected} to confirm`, h("input", { name: "answer", autocomplete: "off" })),
    h("div", { class: "row" }, h("button", { class: "primary danger", type: "submit", value: "yes" }, "Delete"),
      h("button", { type: "button", onclick: () => dialog.close() }, "Cancel")));
  let confirmed = false;
  form.addEventListener("submit", () => { confirmed = new FormData(form).get("answer") === expected; });
  await openDialog(form);
  return confirmed;
}

async function deleteTable(name) {
  if (!await confirmText(`Delete table ${name} and all its items?`, name)) return;
  await attempt(() => api("DeleteTable", { TableName: name }));
  toast(`Deleted ${name}`);
  if (location.hash === "#/" || location.hash === "") route(true); else location.hash = "#/";
}

// ---- One table: items (Query and Scan), indexes, Time to Live, stream.

let view = null;  // the table being shown: { table, tab, search, pages, page }

// The console's addresses: every table, tab, query and item has one, so they can be bookmarked,
// shared and reached with the back button.
//   #/                                   the tables
//   #/table/NAME[?QUERY]                 a table's items, QUERY the Query or Scan form's fields
//   #/table/NAME/item/KEY[?QUERY]        an item (KEY: its key as DynamoDB JSON), over that list
//   #/table/NAME/description             DescribeTable, DescribeTimeToLive and backups, as JSON
function parseHash() {
  const [path, search = ""] = location.hash.replace(/^#/, "").split("?");
  const parts = path.split("/");
  if (parts[1] !== "table" || !parts[2]) return {};
  const table = decodeURIComponent(parts[2]);
  if (parts[3] === "description") return { table, tab: "description", search: "" };
  const item = parts[3] === "item" && parts[4] ? decodeURIComponent(parts[4]) : null;
  return { table, tab: "items", search, item };
}
const tableHash = (name, search = "") =>
  `#/table/${encodeURIComponent(name)}${search ? `?${search}` : ""}`;

async function showTable(name, token, tab, search) {
  const { Table: table } = await attempt(() => api("DescribeTable", { TableName: name }));
  if (token !== navigation) return;
  view = { table, tab, search, pages: [undefined], page: 0 };
  const key = keyText(table.KeySchema, table.AttributeDefinitions);
  const tabLink = (label, href, id, current) => h("a", { href, id, class: current ? "tab current" : "tab",
    "aria-current": current ? "page" : null }, label);
  const header = [
    h("h1", {}, table.TableName),
    h("nav", { class: "tabs" },
      tabLink("Items", tableHash(name), "tab-items", tab === "items"),
      tabLink("Description", `#/table/${encodeURIComponent(name)}/description`, "tab-description",
        tab === "description")),
    h("div", { class: "cards" },
      h("div", {}, "Status", h("b", { id: "table-status" }, table.TableStatus)),
      h("div", {}, "Partition key", h("b", {}, key("HASH"))),
      h("div", {}, "Sort key", h("b", {}, key("RANGE") || "—")),
      h("div", {}, "Items", h("b", {}, String(table.ItemCount))),
      h("div", {}, "Size", h("b", {}, bytes(table.TableSizeBytes))),
      h("div", {}, "Capacity", h("b", {}, table.BillingModeSummary?.BillingMode === "PAY_PER_REQUEST"
        ? "On-demand" : `${table.ProvisionedThroughput.ReadCapacityUnits} R / ${table.ProvisionedThroughput.WriteCapacityUnits} W`))),
    h("div", { class: "row" },
      h("button", { type: "button", onclick: () => route(true) }, "Refresh"),
      h("button", { class: "danger", type: "button", onclick: () => deleteTable(name) }, "Delete table"))];
  if (tab === "description") {
    main.replaceChildren(...header, h("div", { id: "description" }, h("p", { class: "muted" }, "Loading…")));
    await showDescription(table, token);
    return;
  }
  main.replaceChildren(...header,
    h("h2", {}, "Items"), queryForm(table, new URLSearchParams(search)),
    getByKeyForm(table),
    h("div", { id: "results" }),
    h("h2", {}, "Indexes"), indexSection(table),
    ...(table.VectorIndexes ? [h("h2", {}, "Vector indexes"), vectorSection(table)] : []),
    h("h2", {}, "Time to Live"), h("div", { id: "ttl" }),
    h("h2", {}, "Stream"), h("div", { id: "stream" }, streamSection(table)),
    h("h2", {}, "Contributor Insights"), h("div", { id: "insights" }));
  showTimeToLive(table);
  showInsights(table);
  runQuery();
}

// The table as DynamoDB describes it: what dynamodb-admin users look for, without leaving the page.
async function showDescription(table, token) {
  const name = table.TableName;
  const settled = (promise) => promise.then((value) => value, (error) => ({ error: error.message }));
  const [ttl, backups, tags] = await Promise.all([
    settled(api("DescribeTimeToLive", { TableName: name })),
    settled(api("DescribeContinuousBackups", { TableName: name })),
    settled(api("ListTagsOfResource", { ResourceArn: table.TableArn }))]);
  if (token !== navigation) return;
  const block = (title, id, value) => [h("h2", {}, title),
    h("pre", { id, class: "json" }, JSON.stringify(value, null, 2))];
  document.getElementById("description").replaceChildren(
    ...block("DescribeTable", "describe-table", table),
    ...block("DescribeTimeToLive", "describe-ttl", ttl.TimeToLiveDescription || ttl),
    ...block("DescribeContinuousBackups", "describe-backups",
      backups.ContinuousBackupsDescription || backups),
    ...block("Tags", "describe-tags", tags.Tags || tags));
}

// Get one item by its key: the form's fields are the table's key attributes, in their types.
function getByKeyForm(table) {
  const type = (n) => (table.AttributeDefinitions.find((d) => d.AttributeName === n) || {}).AttributeType || "S";
  const form = h("form", { id: "get-item-form", class: "row" },
    ...table.KeySchema.map((k) => h("label", {}, `${k.AttributeName} (${type(k.AttributeName)})`,
      h("input", { name: k.AttributeName, required: true, id: `get-${k.KeyType === "HASH" ? "pk" : "sk"}` }))),
    h("button", { type: "submit", id: "get-item" }, "Get item"),
    h("span", { class: "muted", id: "get-item-result" }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const key = Object.fromEntries(table.KeySchema.map((k) =>
      [k.AttributeName, { [type(k.AttributeName)]: data.get(k.AttributeName) }]));
    openItemLink(key);
  });
  return form;
}

function indexKeys(table, indexName) {
  if (!indexName) return table.KeySchema;
  const index = [...(table.GlobalSecondaryIndexes || []), ...(table.LocalSecondaryIndexes || [])]
    .find((i) => i.IndexName === indexName);
  return index ? index.KeySchema : table.KeySchema;
}

function queryForm(table, params) {
  const indexes = [...(table.GlobalSecondaryIndexes || []), ...(table.LocalSecondaryIndexes || [])];
  const form = h("form", { id: "query-form" },
    h("div", { class: "row" },
      h("label", {}, "Operation", h("select", { name: "mode", id: "mode" },
        h("option", { value: "Scan" }, "Scan"), h("option", { value: "Query" }, "Query"))),
      h("label", {}, "Table or index", h("select", { name: "index", id: "index" },
        h("option", { value: "" }, `${table.TableName} (table)`),
        ...indexes.map((i) => h("option", { value: i.IndexName }, i.IndexName)))),
      h("label", {}, "Page size", h("input", { name: "limit", type: "number", min: 1, max: 1000,
        value: kPageSize, class: "narrow" }))),
    h("div", { class: "row", id: "key-condition" }),
    h("div", { class: "row" },
      h("label", { class: "grow" }, "Filter expression (optional)",
        h("input", { name: "filter", id: "filter", placeholder: "#s = :s AND price > :p" })),
      h("label", { class: "grow" }, "Names and values (JSON, optional)",
        h("input", { name: "values", id: "values",
          placeholder: "{\"#s\": \"status\", \":s\": {\"S\": \"open\"}, \":p\": {\"N\": \"10\"}}" }))),
    h("div", { class: "row" },
      h("button", { class: "primary", type: "submit", id: "run" }, "Run"),
      h("button", { type: "button", id: "new-item", onclick: () => editItem(null) }, "New item")));
  const keyRow = form.querySelector("#key-condition");
  const refreshKeys = () => {
    const query = form.elements.mode.value === "Query";
    const schema = indexKeys(table, form.elements.index.value);
    const type = (n) => (table.AttributeDefinitions.find((d) => d.AttributeName === n) || {}).AttributeType || "S";
    const hash = schema.find((k) => k.KeyType === "HASH");
    const range = schema.find((k) => k.KeyType === "RANGE");
    keyRow.replaceChildren(...(!query ? [] : [
      h("label", {}, `${hash.AttributeName} = (${type(hash.AttributeName)})`,
        h("input", { name: "pk", id: "pk", required: true })),
      range ? h("label", {}, `${range.AttributeName} (${type(range.AttributeName)})`,
        h("select", { name: "skOp", id: "sk-op" }, ["", "=", "<", "<=", ">", ">=", "between", "begins_with"]
          .map((o) => h("option", { value: o }, o || "any")))) : null,
      range ? h("label", {}, "value", h("input", { name: "sk1", id: "sk1" })) : null,
      range ? h("label", {}, "and (between)", h("input", { name: "sk2", id: "sk2" })) : null,
      h("label", {}, "Order", h("select", { name: "order" }, h("option", { value: "asc" }, "Ascending"),
        h("option", { value: "desc" }, "Descending")))]));
  };
  form.elements.mode.addEventListener("change", refreshKeys);
  form.elements.index.addEventListener("change", refreshKeys);
  // The address's query fills the form: the mode and index first (they decide the key fields).
  for (const name of ["mode", "index"]) if (params.has(name)) form.elements[name].value = params.get(name);
  refreshKeys();
  for (const [name, value] of params) {
    if (form.elements[name] && !["mode", "index"].includes(name)) form.elements[name].value = value;
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    // A new query is a new address (the back button returns to the last); the same one runs again.
    const search = formSearch(form);
    if (search !== view.search) {
      location.hash = tableHash(table.TableName, search);
      return;
    }
    view.pages = [undefined];
    view.page = 0;
    runQuery();
  });
  return form;
}

// The form's fields that differ from a fresh form's, as an address's query.
function formSearch(form) {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData(form)) {
    const text = String(value);
    const fresh = name === "mode" ? "Scan" : name === "limit" ? String(kPageSize)
      : name === "order" ? "asc" : "";
    if (text !== fresh) params.set(name, text);
  }
  return params.toString();
}

// The request the form describes, for one page starting at `start`.
function buildRequest(start) {
  const form = document.getElementById("query-form");
  const data = new FormData(form);
  const table = view.table;
  const request = { TableName: table.TableName, Limit: Number(data.get("limit")) || kPageSize };
  if (data.get("index")) request.IndexName = data.get("index");
  if (start) request.ExclusiveStartKey = start;
  const names = {};
  const values = {};
  const extra = (data.get("values") || "").trim();
  if (extra) {
    const parsed = JSON.parse(extra);
    for (const [k, v] of Object.entries(parsed)) (k.startsWith("#") ? names : values)[k] = v;
  }
  if (data.get("filter")) request.FilterExpression = data.get("filter");
  if (data.get("mode") === "Query") {
    const schema = indexKeys(table, data.get("index"));
    const type = (n) => (table.AttributeDefinitions.find((d) => d.AttributeName === n) || {}).AttributeType || "S";
    const hash = schema.find((k) => k.KeyType === "HASH");
    const range = schema.find((k) => k.KeyType === "RANGE");
    names["#ddbd_pk"] = hash.AttributeName;
    values[":ddbd_pk"] = { [type(hash.AttributeName)]: data.get("pk") };
    let condition = "#ddbd_pk = :ddbd_pk";
    const op = data.get("skOp");
    if (range && op) {
      names["#ddbd_sk"] = range.AttributeName;
      const sortType = type(range.AttributeName);
      values[":ddbd_sk1"] = { [sortType]: data.get("sk1") };
      if (op === "between") {
        values[":ddbd_sk2"] = { [sortType]: data.get("sk2") };
        condition += " AND #ddbd_sk BETWEEN :ddbd_sk1 AND :ddbd_sk2";
      } else if (op === "begins_with") {
        condition += " AND begins_with(#ddbd_sk, :ddbd_sk1)";
      } else {
        condition += ` AND #ddbd_sk ${op} :ddbd_sk1`;
      }
    }
    request.KeyConditionExpression = condition;
    request.ScanIndexForward = data.get("order") !== "desc";
  }
  if (Object.keys(names).length) request.ExpressionAttributeNames = names;
  if (Object.keys(values).length) request.ExpressionAttributeValues = values;
  return [data.get("mode"), request];
}

async function runQuery() {
  const results = document.getElementById("results");
  let mode;
  let request;
  try {
    [mode, request] = buildRequest(view.pages[view.page]);
  } catch (error) {
    toast(`Names and values: ${error.message}`, true);
    return;
  }
  const answer = await attempt(() => api(mode, request));
  if (answer.LastEvaluatedKey) view.pages[view.page + 1] = answer.LastEvaluatedKey;
  else view.pages.length = view.page + 1;
  const keys = view.table.KeySchema.map((k) => k.AttributeName);
  const indexKeyNames = indexKeys(view.table, request.IndexName).map((k) => k.AttributeName);
  const columns = [...new Set([...keys, ...indexKeyNames])];
  for (const item of answer.Items) {
    for (const name of Object.keys(item)) {
      if (!columns.includes(name) && columns.length < 12) columns.push(name);
    }
  }
  const first = view.page * request.Limit;
  results.replaceChildren(
    h("div", { class: "row" },
      h("span", { class: "muted", id: "result-count" },
        answer.Count === 0 ? "No items on this page" :
          `Items ${first + 1}–${first + answer.Count} (${answer.ScannedCount} read)`),
      h("button", { type: "button", disabled: view.page === 0, onclick: () => { view.page--; runQuery(); } },
        "Previous page"),
      h("button", { type: "button", id: "next-page", disabled: !answer.LastEvaluatedKey,
        onclick: () => { view.page++; runQuery(); } }, "Next page")),
    h("table", { class: "grid", id: "items" },
      h("thead", {}, h("tr", {}, columns.map((c) => h("th", {}, c)))),
      h("tbody", {}, answer.Items.map((item) => {
        const open = () => openItemLink(Object.fromEntries(keyNamesOf(view.table).map((n) => [n, item[n]])));
        return h("tr", { class: "item", tabindex: 0, onclick: open,
          onkeydown: (e) => { if (e.key === "Enter") open(); } },
          columns.map((c) => h("td", { title: item[c] ? preview(item[c], 400) : "" },
            item[c] ? preview(item[c]) : "")));
      }))));
}

const keyNamesOf = (table) => table.KeySchema.map((k) => k.AttributeName);

// Opening an item is going to its address; closing the editor goes back.
let itemOpenedHere = false;
function openItemLink(key) {
  itemOpenedHere = true;
  location.hash = `#/table/${encodeURIComponent(view.table.TableName)}/item/` +
    `${encodeURIComponent(JSON.stringify(key))}${view.search ? `?${view.search}` : ""}`;
}

function leaveItem() {
  const here = itemOpenedHere;
  itemOpenedHere = false;
  if (!/\/item\//.test(location.hash)) return;
  if (here) history.back();
  else location.replace(tableHash(view.table.TableName, view.search));
}

// The item an address names, read now (consistently), in the editor.
async function openItemAt(keyText) {
  let key;
  try { key = JSON.parse(keyText); } catch {
    toast("This address names no item key.", true);
    return leaveItem();
  }
  const { Item: item } = await attempt(() => api("GetItem", { TableName: view.table.TableName, Key: key,
    ConsistentRead: true }));
  const result = document.getElementById("get-item-result");
  if (!item) {
    if (result) result.textContent = "No item has this key.";
    toast("No item has this key.", true);
    return leaveItem();
  }
  if (result) result.textContent = "";
  const at = location.hash;
  await editItem(item);
  // Closed by the user (not by the address moving on): back to the list.
  if (location.hash === at) leaveItem();
}

// The editor: an existing item (null: a new one) as DynamoDB JSON or plain JSON.
async function editItem(item) {
  const table = view.table;
  const keyNames = table.KeySchema.map((k) => k.AttributeName);
  const template = item || Object.fromEntries(keyNames.map((n) => {
    const type = table.AttributeDefinitions.find((d) => d.AttributeName === n).AttributeType;
    return [n, { [type]: type === "N" ? "0" : "" }];
  }));
  let format = hasPlainForm(template) ? "plain" : "dynamodb";
  const text = h("textarea", { id: "item-text", rows: 18, spellcheck: "false", "aria-label": "Item" });
  const formatSelect = h("select", { id: "item-format" },
    h("option", { value: "dynamodb" }, "DynamoDB JSON"), h("option", { value: "plain" }, "Plain JSON"));
  const message = h("p", { class: "bad", id: "item-error" });
  const show = (value) => {
    text.value = format === "plain" ? toPlainText(value) : JSON.stringify(value, null, 2);
    formatSelect.value = format;
  };
  const read = () => (format === "plain" ? fromPlainText(text.value) : fromDynamoDbText(text.value));
  formatSelect.addEventListener("change", () => {
    let value;
    try { value = read(); } catch (error) {
      message.textContent = error.message;
      formatSelect.value = format;
      return;
    }
    if (formatSelect.value === "plain" && !hasPlainForm(value)) {
      message.textContent = "This item holds sets or binary values, which plain JSON cannot: edit it as DynamoDB JSON.";
      formatSelect.value = format;
      return;
    }
    message.textContent = "";
    format = formatSelect.value;
    show(value);
  });
  show(template);
  const save = async () => {
    let value;
    try { value = read(); } catch (error) {
      message.textContent = error.message;
      return;
    }
    const oldKey = item && Object.fromEntries(keyNames.map((n) => [n, item[n]]));
    const keyChanged = oldKey && keyNames.some((n) => JSON.stringify(value[n]) !== JSON.stringify(item[n]));
    try {
      await api("PutItem", { TableName: table.TableName, Item: value });
      if (keyChanged) await api("DeleteItem", { TableName: table.TableName, Key: oldKey });
    } catch (error) {
      message.textContent = error.message;
      return;
    }
    dialog.close();
    toast(item ? "Saved" : "Created");
    runQuery();
  };
  const remove = async () => {
    try {
      await api("DeleteItem", { TableName: table.TableName,
        Key: Object.fromEntries(keyNames.map((n) => [n, item[n]])) });
    } catch (error) {
      message.textContent = error.message;
      return;
    }
    dialog.close();
    toast("Deleted");
    runQuery();
  };
  text.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) { event.preventDefault(); save(); }
  });
  const closed = openDialog(
    h("h1", {}, item ? "Edit item" : "New item"),
    h("div", { class: "row" }, h("label", {}, "Format", formatSelect)),
    text, message,
    h("div", { class: "row" },
      h("button", { class: "primary", type: "button", id: "save-item", onclick: save }, "Save"),
      item ? h("button", { class: "danger", type: "button", id: "delete-item", onclick: remove }, "Delete item") : null,
      h("button", { type: "button", onclick: () => dialog.close() }, "Close")));
  // At the top: the caret at the start (focus would put it, and the view, at the end of a long
  // item), the dialog scrolled up.
  text.focus();
  text.setSelectionRange(0, 0);
  text.scrollTop = 0;
  dialog.scrollTop = 0;
  await closed;
}

function indexSection(table) {
  const indexes = [...(table.GlobalSecondaryIndexes || []).map((i) => ({ ...i, kind: "global" })),
    ...(table.LocalSecondaryIndexes || []).map((i) => ({ ...i, kind: "local" }))];
  const key = (i) => keyText(i.KeySchema, table.AttributeDefinitions);
  const form = h("form", { id: "create-index-form" },
    h("div", { class: "row" }, h("label", {}, "New global index name",
      h("input", { name: "IndexName", required: true, minlength: 3, pattern: "[a-zA-Z0-9_.\\-]+" }))),
    keyFields("pk", "Partition key", false), keyFields("sk", "Sort key", true),
    h("div", { class: "row" }, h("button", { type: "submit" }, "Create index")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const definitions = [...table.AttributeDefinitions];
    const create = { IndexName: data.get("IndexName").trim(), KeySchema: keysFrom(data, definitions),
      Projection: { ProjectionType: "ALL" } };
    if (table.BillingModeSummary?.BillingMode !== "PAY_PER_REQUEST") {
      create.ProvisionedThroughput = { ReadCapacityUnits: 5, WriteCapacityUnits: 5 };
    }
    await attempt(() => api("UpdateTable", { TableName: table.TableName, AttributeDefinitions: definitions,
      GlobalSecondaryIndexUpdates: [{ Create: create }] }));
    toast(`Creating index ${create.IndexName}`);
    route(true);
  });
  return h("div", {},
    indexes.length === 0 ? h("p", { class: "muted" }, "No secondary indexes.") :
      h("table", { class: "grid", id: "indexes" },
        h("thead", {}, h("tr", {}, ["Name", "Kind", "Status", "Partition key", "Sort key", "Projection", "Items", ""]
          .map((c) => h("th", {}, c)))),
        h("tbody", {}, indexes.map((i) => h("tr", {},
          h("td", {}, i.IndexName), h("td", {}, i.kind), h("td", {}, i.IndexStatus || "ACTIVE"),
          h("td", {}, key(i)("HASH")), h("td", {}, key(i)("RANGE")), h("td", {}, i.Projection.ProjectionType),
          h("td", {}, String(i.ItemCount ?? "")),
          h("td", {}, i.kind === "global" ? h("button", { class: "danger", type: "button",
            onclick: async () => {
              if (!await confirmText(`Delete index ${i.IndexName}?`, i.IndexName)) return;
              await attempt(() => api("UpdateTable", { TableName: table.TableName,
                GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: i.IndexName } }] }));
              route(true);
            } }, "Delete") : null))))),
    form);
}

// ---- Vector indexes: their definitions, and a search box (SearchVectors, TopK nearest first).

function vectorSection(table) {
  const indexes = table.VectorIndexes;
  const schemaText = (i) => (i.SearchSchema || [])
    .map((e) => `${e.AttributeName} (${e.SearchSchemaElementType})`).join(", ") || "—";
  const index = h("select", { name: "IndexName", id: "vector-index" },
    indexes.map((i) => h("option", { value: i.IndexName }, i.IndexName)));
  const conditions = h("div", { class: "row", id: "vector-conditions" });
  // One field a search-schema attribute: the HASH one must be given, filters may be.
  const showConditions = () => {
    const chosen = indexes.find((i) => i.IndexName === index.value);
    conditions.replaceChildren(...(chosen.SearchSchema || []).map((e) => h("label", {},
      `${e.AttributeName} =`, h("input", { name: `condition:${e.AttributeName}`,
        required: e.SearchSchemaElementType === "HASH" }))));
  };
  index.addEventListener("change", showConditions);
  const form = h("form", { id: "vector-search-form" },
    h("div", { class: "row" }, h("label", {}, "Index", index),
      h("label", {}, "TopK", h("input", { name: "TopK", type: "number", min: 1, max: 100, value: 10 }))),
    h("label", {}, "Search vector (numbers, as a JSON list)",
      h("textarea", { name: "SearchVector", rows: 2, required: true, placeholder: "[0.12, -0.5, 0.33]" })),
    conditions,
    h("div", { class: "row" }, h("button", { type: "submit" }, "Search")),
    h("div", { id: "vector-results" }));
  showConditions();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    let numbers;
    try {
      numbers = JSON.parse(data.get("SearchVector"));
      if (!Array.isArray(numbers) || !numbers.every((n) => typeof n === "number")) throw new Error();
    } catch {
      toast("The search vector is a JSON list of numbers", true);
      return;
    }
    const chosen = indexes.find((i) => i.IndexName === index.value);
    const request = { TableName: table.TableName, IndexName: chosen.IndexName,
      TopK: Number(data.get("TopK")), SearchVector: numbers.map((n) => ({ N: String(n) })) };
    const terms = [];
    const names = {};
    const values = {};
    (chosen.SearchSchema || []).forEach((e, n) => {
      const text = String(data.get(`condition:${e.AttributeName}`) || "");
      if (text === "") return;
      const type = table.AttributeDefinitions.find((d) => d.AttributeName === e.AttributeName)
        ?.AttributeType || "S";
      names[`#s${n}`] = e.AttributeName;
      values[`:s${n}`] = { [type]: text };
      terms.push(`#s${n} = :s${n}`);
    });
    if (terms.length > 0) {
      Object.assign(request, { SearchConditionExpression: terms.join(" AND "),
        ExpressionAttributeNames: names, ExpressionAttributeValues: values });
    }
    const answer = await attempt(() => api("SearchVectors", request));
    const keys = keyNamesOf(table);
    document.getElementById("vector-results").replaceChildren(
      answer.SearchResults.length === 0 ? h("p", { class: "muted" }, "No matches.") :
        h("table", { class: "grid", id: "vector-matches" },
          h("thead", {}, h("tr", {}, ["Score", "Item"].map((c) => h("th", {}, c)))),
          h("tbody", {}, answer.SearchResults.map((result) => {
            const open = () => openItemLink(Object.fromEntries(keys.map((n) => [n, result.Item[n]])));
            return h("tr", { class: "item", tabindex: 0, onclick: open,
              onkeydown: (e) => { if (e.key === "Enter") open(); } },
              h("td", {}, String(result.Score)), h("td", {}, preview({ M: result.Item }, 200)));
          }))));
  });
  return h("div", {},
    h("table", { class: "grid", id: "vector-indexes" },
      h("thead", {}, h("tr", {}, ["Name", "Status", "Vector attribute", "Dimensions", "Distance",
        "Search schema", "Projection", "Vectors"].map((c) => h("th", {}, c)))),
      h("tbody", {}, indexes.map((i) => h("tr", {},
        h("td", {}, i.IndexName), h("td", {}, i.Backfilling ? `${i.IndexStatus} (backfilling)` : i.IndexStatus),
        h("td", {}, i.VectorAttribute.AttributeName), h("td", {}, String(i.Dimensions)),
        h("td", {}, i.DistanceFunction), h("td", {}, schemaText(i)), h("td", {}, i.Projection.ProjectionType),
        h("td", {}, String(i.ItemCount ?? "")))))),
    form);
}

async function showTimeToLive(table) {
  const box = document.getElementById("ttl");
  const { TimeToLiveDescription: ttl } = await attempt(() => api("DescribeTimeToLive", { TableName: table.TableName }));
  const enabled = ttl.TimeToLiveStatus === "ENABLED" || ttl.TimeToLiveStatus === "ENABLING";
  const form = h("form", { class: "row" },
    h("label", {}, "Attribute (epoch seconds)", h("input", { name: "attribute", required: true,
      value: ttl.AttributeName || "", readonly: enabled })),
    h("button", { type: "submit" }, enabled ? "Disable" : "Enable"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    await attempt(() => api("UpdateTimeToLive", { TableName: table.TableName,
      TimeToLiveSpecification: { Enabled: !enabled, AttributeName: new FormData(form).get("attribute") } }));
    showTimeToLive(table);
  });
  box.replaceChildren(h("p", {}, "Status: ", h("b", { id: "ttl-status" }, ttl.TimeToLiveStatus),
    ttl.AttributeName ? ` on ${ttl.AttributeName}` : ""), form);
}

// Contributor Insights: the table's setting, and while it is on the hot keys ddbd computes for each
// rule of the table and its global indexes (GET /_ddbd/contributor-insights/<table>).
const kRuleTitles = { PKC: "Most accessed partition keys", SKC: "Most accessed items",
  PKT: "Most throttled partition keys", SKT: "Most throttled items" };

async function showInsights(table) {
  const box = document.getElementById("insights");
  const described = await attempt(() => api("DescribeContributorInsights", { TableName: table.TableName }));
  const status = described.ContributorInsightsStatus;
  const enabled = status === "ENABLED" || status === "ENABLING";
  const toggle = async () => {
    await attempt(() => api("UpdateContributorInsights", { TableName: table.TableName,
      ContributorInsightsAction: enabled ? "DISABLE" : "ENABLE" }));
    showInsights(table);
  };
  const parts = [h("p", {}, "Status: ", h("b", { id: "insights-status" }, status)),
    h("div", { class: "row" },
      h("button", { type: "button", id: "insights-toggle", onclick: toggle }, enabled ? "Disable" : "Enable"),
      enabled ? h("button", { type: "button", onclick: () => showInsights(table) }, "Refresh") : null)];
  if (enabled) {
    const report = await attempt(() => ddbdGet(
      `/_ddbd/contributor-insights/${encodeURIComponent(table.TableName)}`, "top=10"));
    for (const resource of report.Resources) {
      for (const rule of resource.Rules) {
        const title = kRuleTitles[rule.RuleName.split("-")[1]] || rule.RuleName;
        parts.push(h("h3", {}, resource.IndexName ? `${resource.IndexName}: ${title}` : title),
          rule.Contributors.length === 0
            ? h("p", { class: "muted" }, `None in the last ${report.WindowMinutes} minutes.`)
            : h("table", { class: "grid insights" },
              h("thead", {}, h("tr", {}, ["#", rule.KeyLabels.join(", "), rule.MetricName,
                "Busiest minute"].map((c) => h("th", {}, c)))),
              h("tbody", {}, rule.Contributors.map((c, i) => h("tr", {},
                h("td", {}, String(i + 1)), h("td", {}, c.Keys.join(", ")),
                h("td", {}, String(c.ApproximateAggregateValue)), h("td", {}, String(c.Maximum)))))));
      }
    }
  }
  box.replaceChildren(...parts);
}

function streamSection(table) {
  const spec = table.StreamSpecification;
  const enabled = spec && spec.StreamEnabled;
  const toggle = h("form", { class: "row" },
    enabled ? null : h("label", {}, "View type", h("select", { name: "view" },
      ...["NEW_AND_OLD_IMAGES", "NEW_IMAGE", "OLD_IMAGE", "KEYS_ONLY"].map((v) => h("option", { value: v }, v)))),
    h("button", { type: "submit" }, enabled ? "Disable stream" : "Enable stream"),
    enabled ? h("button", { type: "button", id: "stream-records", onclick: () => latestRecords(table) },
      "Latest records") : null);
  toggle.addEventListener("submit", async (event) => {
    event.preventDefault();
    const StreamSpecification = enabled ? { StreamEnabled: false }
      : { StreamEnabled: true, StreamViewType: new FormData(toggle).get("view") };
    await attempt(() => api("UpdateTable", { TableName: table.TableName, StreamSpecification }));
    route(true);
  });
  return h("div", {},
    h("p", {}, enabled ? `Enabled (${spec.StreamViewType}): ${table.LatestStreamArn}` : "Off."),
    toggle, h("div", { id: "records" }));
}

// The last records of the stream: the newest shards read from their start, newest 25 shown.
async function latestRecords(table) {
  const box = document.getElementById("records");
  const { StreamDescription: stream } = await attempt(() => streams("DescribeStream",
    { StreamArn: table.LatestStreamArn }));
  const records = [];
  for (const shard of stream.Shards.slice(-3)) {
    const { ShardIterator } = await attempt(() => streams("GetShardIterator", { StreamArn: table.LatestStreamArn,
      ShardId: shard.ShardId, ShardIteratorType: "TRIM_HORIZON" }));
    let iterator = ShardIterator;
    for (let round = 0; iterator && round < 20; round++) {
      const page = await attempt(() => streams("GetRecords", { ShardIterator: iterator, Limit: 1000 }));
      records.push(...page.Records);
      if (page.Records.length === 0) break;
      iterator = page.NextShardIterator;
    }
  }
  const latest = records.slice(-25).reverse();
  box.replaceChildren(latest.length === 0 ? h("p", { class: "muted" }, "No records.") :
    h("table", { class: "grid", id: "records-table" },
      h("thead", {}, h("tr", {}, ["Time", "Event", "Keys", "New image"].map((c) => h("th", {}, c)))),
      h("tbody", {}, latest.map((r) => h("tr", {},
        h("td", {}, new Date(r.dynamodb.ApproximateCreationDateTime * 1000).toISOString()),
        h("td", {}, r.eventName),
        h("td", {}, preview({ M: r.dynamodb.Keys }, 80)),
        h("td", {}, r.dynamodb.NewImage ? preview({ M: r.dynamodb.NewImage }, 80) : ""))))));
}

// ---- Routing and keys.

// Shows what the address names. A change of item only (or none) keeps the table's page as it is,
// so the back button from an item returns to the list where it was; `force` redraws it.
async function route(force = false) {
  const token = ++navigation;
  const place = parseHash();
  try {
    if (!place.table) {
      view = null;
      await showTables(token);
      return;
    }
    const same = view && view.table.TableName === place.table && view.tab === place.tab &&
      view.search === place.search;
    if (force === true || !same) await showTable(place.table, token, place.tab, place.search);
    if (token !== navigation) return;
    if (place.item) {
      if (dialog.open) dialog.close();
      await openItemAt(place.item);
    } else if (dialog.open && document.getElementById("item-text")) {
      dialog.close();  // back from an item: its editor goes
    }
  } catch (error) {
    if (token !== navigation) return;
    main.replaceChildren(h("p", { class: "bad" }, error.message),
      h("button", { type: "button", onclick: () => route(true) }, "Retry"));
  }
}

document.addEventListener("keydown", (event) => {
  const typing = ["INPUT", "TEXTAREA", "SELECT"].includes(event.target.tagName) || dialog.open;
  if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "r") route(true);
  else if (event.key === "c") editConnection();
  else if (event.key === "n" && view && document.getElementById("query-form")) editItem(null);
  else if (event.key === "/" && document.getElementById("mode")) {
    event.preventDefault();
    document.getElementById("mode").focus();
  } else return;
});

document.getElementById("connect").addEventListener("click", () => editConnection());
window.addEventListener("hashchange", () => route());
showConnection();
route();
