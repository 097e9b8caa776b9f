// Items as DynamoDB JSON ({"name": {"S": "x"}}) and as plain JSON ({"name": "x"}), both ways,
// exactly: numbers keep every digit (a plain JSON number is read as its text, never as a
// JavaScript double). Plain JSON has no sets and no binary, so items holding them are edited as
// DynamoDB JSON (hasPlainForm).

const kMaxDepth = 64;  // DynamoDB allows 32 levels of nesting; deeper text is refused here

// True when the item survives a trip through plain JSON.
export function hasPlainForm(item) {
  const plain = (value, depth) => {
    if (depth > kMaxDepth) return false;
    const [type, inner] = Object.entries(value)[0] || [];
    if (type === "L") return inner.every((v) => plain(v, depth + 1));
    if (type === "M") return Object.values(inner).every((v) => plain(v, depth + 1));
    return ["S", "N", "BOOL", "NULL"].includes(type);
  };
  return Object.values(item).every((v) => plain(v, 1));
}

function quote(text) {
  return JSON.stringify(text);
}

// Plain JSON text of a DynamoDB JSON item, numbers written as their digits.
export function toPlainText(item, indent = "  ") {
  const write = (value, pad) => {
    const [type, inner] = Object.entries(value)[0];
    const deeper = pad + indent;
    switch (type) {
      case "S": return quote(inner);
      case "N": return inner;
      case "BOOL": return inner ? "true" : "false";
      case "NULL": return "null";
      case "L":
        if (inner.length === 0) return "[]";
        return "[\n" + inner.map((v) => deeper + write(v, deeper)).join(",\n") + "\n" + pad + "]";
      case "M": return writeMap(inner, pad);
      default: throw new Error(`${type} has no plain JSON form`);
    }
  };
  const writeMap = (map, pad) => {
    const names = Object.keys(map);
    if (names.length === 0) return "{}";
    const deeper = pad + indent;
    return "{\n" + names.map((n) => `${deeper}${quote(n)}: ${write(map[n], deeper)}`).join(",\n") +
      "\n" + pad + "}";
  };
  return writeMap(item, "");
}

// A JSON reader that keeps number literals as text. Throws Error with the position.
function parseExact(text) {
  let at = 0;
  const fail = (what) => { throw new Error(`${what} at character ${at + 1}`); };
  const space = () => { while (at < text.length && " \t\n\r".includes(text[at])) at++; };
  const value = (depth) => {
    if (depth > kMaxDepth) fail("Nested too deeply");
    space();
    const c = text[at];
    if (c === "{") {
      at++;
      const object = {};
      space();
      if (text[at] === "}") { at++; return { type: "object", value: object }; }
      for (;;) {
        space();
        if (text[at] !== "\"") fail("Expected a name");
        const name = string();
        space();
        if (text[at] !== ":") fail("Expected ':'");
        at++;
        object[name] = value(depth + 1);
        space();
        if (text[at] === ",") { at++; continue; }
        if (text[at] === "}") { at++; return { type: "object", value: object }; }
        fail("Expected ',' or '}'");
      }
    }
    if (c === "[") {
      at++;
      const list = [];
      space();
      if (text[at] === "]") { at++; return { type: "array", value: list }; }
      for (;;) {
        list.push(value(depth + 1));
        space();
        if (text[at] === ",") { at++; continue; }
        if (text[at] === "]") { at++; return { type: "array", value: list }; }
        fail("Expected ',' or ']'");
      }
    }
    if (c === "\"") return { type: "string", value: string() };
    const number = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at));
    if (number) { at += number[0].length; return { type: "number", value: number[0] }; }
    for (const [word, type, v] of [["true", "boolean", true], ["false", "boolean", false],
      ["null", "null", null]]) {
      if (text.startsWith(word, at)) { at += word.length; return { type, value: v }; }
    }
    fail("Unexpected " + (c === undefined ? "end of text" : `'${c}'`));
  };
  const string = () => {
    const match = /^"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/.exec(text.slice(at));
    if (!match) fail("Bad string");
    at += match[0].length;
    return JSON.parse(match[0]);
  };
  const result = value(0);
  space();
  if (at !== text.length) fail("Unexpected text after the item");
  return result;
}

// A DynamoDB JSON item from plain JSON text (an object).
export function fromPlainText(text) {
  const parsed = parseExact(text);
  if (parsed.type !== "object") throw new Error("An item is a JSON object");
  const convert = (node) => {
    switch (node.type) {
      case "string": return { S: node.value };
      case "number": return { N: node.value };
      case "boolean": return { BOOL: node.value };
      case "null": return { NULL: true };
      case "array": return { L: node.value.map(convert) };
      default: return { M: convertMap(node.value) };
    }
  };
  const convertMap = (map) => Object.fromEntries(Object.entries(map).map(([k, v]) => [k, convert(v)]));
  return convertMap(parsed.value);
}

// A DynamoDB JSON item from its text, checked for shape (each value one type descriptor).
export function fromDynamoDbText(text) {
  const parsed = parseExact(text);
  if (parsed.type !== "object") throw new Error("An item is a JSON object");
  const types = new Set(["S", "N", "B", "BOOL", "NULL", "L", "M", "SS", "NS", "BS"]);
  const convert = (node, where) => {
    if (node.type !== "object" || Object.keys(node.value).length !== 1) {
      throw new Error(`${where}: expected one type, as {"S": "text"}`);
    }
    const [type, inner] = Object.entries(node.value)[0];
    if (!types.has(type)) throw new Error(`${where}: unknown type ${type}`);
    const want = (kind) => {
      if (inner.type !== kind) throw new Error(`${where}: ${type} takes a ${kind}`);
      return inner.value;
    };
    switch (type) {
      case "S": case "B": return { [type]: want("string") };
      case "N": {
        // Numbers may be written as JSON numbers or (as DynamoDB does) as strings.
        if (inner.type === "number") return { N: inner.value };
        return { N: want("string") };
      }
      case "BOOL": return { BOOL: want("boolean") };
      case "NULL": return { NULL: want("boolean") };
      case "L": return { L: want("array").map((v, i) => convert(v, `${where}[${i}]`)) };
      case "M": return { M: convertMap(want("object"), where + ".") };
      default: return {
        [type]: want("array").map((v) => {
          if (v.type !== "string" && !(type === "NS" && v.type === "number")) {
            throw new Error(`${where}: ${type} holds strings`);
          }
          return v.value;
        }),
      };
    }
  };
  const convertMap = (map, prefix) => Object.fromEntries(
    Object.entries(map).map(([k, v]) => [k, convert(v, prefix + k)]));
  return convertMap(parsed.value, "");
}

// One value, short, for a table cell.
export function preview(value, limit = 60) {
  const [type, inner] = Object.entries(value)[0];
  let text;
  switch (type) {
    case "S": text = inner; break;
    case "N": text = inner; break;
    case "BOOL": text = String(inner); break;
    case "NULL": text = "null"; break;
    case "B": text = `<binary ${inner.length} base64>`; break;
    case "SS": case "NS": case "BS": text = `${type} [${inner.join(", ")}]`; break;
    case "L": text = `[${inner.map((v) => preview(v, 20)).join(", ")}]`; break;
    case "M": text = `{${Object.entries(inner).map(([k, v]) => `${k}: ${preview(v, 20)}`).join(", ")}}`; break;
    default: text = JSON.stringify(value);
  }
  return text.length > limit ? text.slice(0, limit - 1) + "…" : text;
}
