// The lines of exports and imports (protocol/item_lines.h, protocol/ion_text.h): every kind of
// value written as DynamoDB JSON and as Ion and read back the same; Ion as people write it
// (comments, long strings, escapes, quoted names and annotations, typed nulls, underscores); what
// does not read (clobs, timestamps, s-expressions, hex, nesting past the bound) and what reads but
// is no item.
#include "protocol/item_lines.h"

#include <catch2/catch.hpp>
#include <string>

#include "engine/model/item_codec.h"
#include "protocol/ion_text.h"

namespace ddbd {
namespace {

std::string JsonLine(const ItemLines& lines, std::string_view blob) {
  std::string out;
  lines.AppendItem(ExportFormat::kDynamoDbJson, blob, out);
  return out;
}

// An item with every kind of value, as DynamoDB JSON.
constexpr std::string_view kEveryKind =
    R"({"Item":{"pk":{"S":"k\"1\"\n é ✓"},"n":{"N":"600"},"f":{"N":"-1.5"},"z":{"N":"0"},)"
    R"("big":{"N":"12345678901234567890123456789012345678"},"tiny":{"N":"1E-130"},)"
    R"("b":{"B":"AP9iaW4="},"ss":{"SS":["b","a"]},"ns":{"NS":["1","2.5","300"]},)"
    R"("bs":{"BS":["eA==","eQ=="]},"t":{"BOOL":true},"no":{"BOOL":false},"nul":{"NULL":true},)"
    R"("l":{"L":[{"N":"1"},{"S":"two"},{"M":{}},{"L":[]}]},)"
    R"("m":{"M":{"weird name":{"M":{"x":{"L":[{"NULL":true}]}}},"true":{"S":"kw"}}}}})";

TEST_CASE("Every kind of value goes out and comes back, in DynamoDB JSON and in Ion") {
  auto lines = NewItemLines();
  const LineItem read = lines->ItemOfLine(InputFormat::kDynamoDbJson, kEveryKind);
  REQUIRE(read.kind == LineItem::Kind::kItem);
  const std::string blob = EncodeItem(read.item);
  const std::string json = JsonLine(*lines, blob);
  for (const ExportFormat format : {ExportFormat::kDynamoDbJson, ExportFormat::kIon}) {
    std::string line;
    lines->AppendItem(format, blob, line);
    REQUIRE(line.ends_with('\n'));
    line.pop_back();
    const InputFormat input =
        format == ExportFormat::kIon ? InputFormat::kIon : InputFormat::kDynamoDbJson;
    const LineItem back = lines->ItemOfLine(input, line);
    INFO(line);
    REQUIRE(back.kind == LineItem::Kind::kItem);
    CHECK(JsonLine(*lines, EncodeItem(back.item)) == json);
  }
}

TEST_CASE("Ion as people write it reads as DynamoDB JSON") {
  auto json = [](std::string_view ion) { return IonToDynamoDbJson(ion).value_or("(none)"); };
  CHECK(json(R"($ion_1_0 {Item:{a:"x"}})") == R"({"Item":{"a":{"S":"x"}}})");
  CHECK(json(R"( /* c */ {Item: // line
                  {'quoted name': '''long ''' /* between */ '''string''', "s": "\x41\u00e9\U0001F600"}})") ==
        "{\"Item\":{\"quoted name\":{\"S\":\"long "
        "string\"},\"s\":{\"S\":\"A\xc3\xa9\xf0\x9f\x98\x80\"}}}");
  CHECK(json("{Item:{n:6d2, m:103., f:-1.5d-3, i:1_000, e:2.5e3, z:0.}}") ==
        R"({"Item":{"n":{"N":"6E2"},"m":{"N":"103"},"f":{"N":"-1.5E-3"},"i":{"N":"1000"},)"
        R"("e":{"N":"2.5E3"},"z":{"N":"0"}}})");
  CHECK(json("{Item:{b:{{ AP9i aW4= }}, n:null.string, t:true, l:[1, [], {}],}}") ==
        R"({"Item":{"b":{"B":"AP9iaW4="},"n":{"NULL":true},"t":{"BOOL":true},)"
        R"("l":{"L":[{"N":"1"},{"L":[]},{"M":{}}]}}})");
  CHECK(json("{Item:{s:'$dynamodb_SS'::[\"a\"], n:other::$dynamodb_NS::[1, 2d1]}}") ==
        R"({"Item":{"s":{"SS":["a"]},"n":{"NS":["1","2E1"]}}})");
}

TEST_CASE("What Ion DynamoDB never writes, or nests too deep, does not read") {
  for (const std::string_view ion :
       {"{Item:{c:{{\"clob\"}}}}", "{Item:{s:(a b)}}", "{Item:{h:0x1F}}", "{Item:{sym:abc}}",
        "{Item:{a:\"unterminated}}", "{Item:{a:1}", "{Item:{a:1}} trailing",
        "{Item:{ss:$dynamodb_SS::[1]}}", "\"just a string\"", "", "{Item:{a:\"\\q\"}}",
        "{Item:{a:\"\\uD800\"}}"}) {
    INFO(ion);
    CHECK_FALSE(IonToDynamoDbJson(ion));
  }
  std::string deep = "{Item:{a:";
  for (int i = 0; i < kIonDepthLimit; ++i) deep += "[";
  CHECK_FALSE(IonToDynamoDbJson(deep + std::string(kIonDepthLimit, ']') + "}}"));
  std::string fine = "{Item:{a:";
  for (int i = 0; i < 30; ++i) fine += "[";
  CHECK(IonToDynamoDbJson(fine + std::string(30, ']') + "}}"));
  // A million brackets: refused at the bound, no deeper.
  CHECK_FALSE(IonToDynamoDbJson(std::string(1'000'000, '[')));
}

TEST_CASE("An import's line is an item, no item (the file goes on) or unreadable (it stops)") {
  auto lines = NewItemLines();
  auto kind = [&](InputFormat format, std::string_view line) {
    return lines->ItemOfLine(format, line).kind;
  };
  CHECK(kind(InputFormat::kDynamoDbJson, R"({"Item":{"pk":{"S":"a"}}})") == LineItem::Kind::kItem);
  CHECK(kind(InputFormat::kDynamoDbJson, R"({"Thing":{"pk":{"S":"a"}}})") ==
        LineItem::Kind::kNotAnItem);
  CHECK(kind(InputFormat::kDynamoDbJson, R"({"Item":{"pk":{"N":"x"}}})") ==
        LineItem::Kind::kNotAnItem);
  CHECK(kind(InputFormat::kDynamoDbJson, "not json") == LineItem::Kind::kUnreadable);
  CHECK(kind(InputFormat::kIon, "$ion_1_0 {Item:{pk:\"a\"}}") == LineItem::Kind::kItem);
  CHECK(kind(InputFormat::kIon, "{Item:{pk:1.2.3}}") == LineItem::Kind::kNotAnItem);
  // A timestamp reads as a number, which the N rules refuse.
  CHECK(kind(InputFormat::kIon, "{Item:{t:2007-01-01T}}") == LineItem::Kind::kNotAnItem);
  CHECK(kind(InputFormat::kIon, "{Item:") == LineItem::Kind::kUnreadable);
  // A lone low surrogate is unreadable, as a lone high one is (the item line fuzzer found the
  // first read, then written back as bytes that are not UTF-8); a pair reads.
  CHECK(kind(InputFormat::kDynamoDbJson, R"({"Item":{"pk":{"S":"a\udddd"}}})") ==
        LineItem::Kind::kUnreadable);
  CHECK(kind(InputFormat::kDynamoDbJson, R"({"Item":{"pk":{"S":"a\ud800"}}})") ==
        LineItem::Kind::kUnreadable);
  CHECK(kind(InputFormat::kDynamoDbJson, R"({"Item":{"pk":{"S":"a\ud83d\ude00"}}})") ==
        LineItem::Kind::kItem);
  CHECK(kind(InputFormat::kDynamoDbJson, R"({"Item":{"pk":{"S":"a\\udddd"}}})") ==
        LineItem::Kind::kItem);
}

}  // namespace
}  // namespace ddbd
