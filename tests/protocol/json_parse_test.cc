#include "protocol/json_parse.h"

#include <catch2/catch.hpp>
#include <string>

namespace ddbd {
namespace {

bool Parses(std::string text) {
  rapidjson::Document document;
  return json::ParseInPlace(text, document);
}

std::string ParsedString(std::string text) {
  rapidjson::Document document;
  REQUIRE(json::ParseInPlace(text, document));
  return std::string(document["s"].GetString(), document["s"].GetStringLength());
}

TEST_CASE("JSON text: ASCII bodies read as the checked parse reads them") {
  // Long enough for the SIMD scan of a string's plain run (16 bytes at a time).
  const std::string plain(40, 'x');
  CHECK(ParsedString("{\"s\":\"" + plain + "\"}") == plain);
  CHECK(ParsedString("{\n\t\"s\" :\r\n \"a\\\"b\\\\c\\u0041\\n\"}") == "a\"b\\cA\n");
  CHECK(ParsedString(R"({"s":"\ud83d\ude00"})") == "\xF0\x9F\x98\x80");
  // A raw control byte inside a string is refused, at any place in a long run: 0x1A-0x1F are
  // the ones RapidJSON's SIMD scan would let through.
  for (int control : {0x01, 0x09, 0x0A, 0x19, 0x1A, 0x1B, 0x1F}) {
    for (size_t at : {size_t{0}, size_t{7}, size_t{20}, size_t{39}}) {
      std::string value = plain;
      value[at] = static_cast<char>(control);
      INFO("byte " << control << " at " << at);
      CHECK_FALSE(Parses("{\"s\":\"" + value + "\"}"));
    }
  }
  CHECK_FALSE(Parses(R"({"s":"\udc00"})"));  // a lone low surrogate
  CHECK_FALSE(Parses(R"({"s":"x")"));
  CHECK_FALSE(Parses(R"({"s":"x"} x)"));
}

TEST_CASE("JSON text: other bytes must be UTF-8") {
  CHECK(ParsedString("{\"s\":\"caf\xC3\xA9 " + std::string(30, 'y') + "\"}") ==
        "caf\xC3\xA9 " + std::string(30, 'y'));
  CHECK_FALSE(Parses("{\"s\":\"\xC3\x28" + std::string(30, 'y') + "\"}"));  // bad continuation
  CHECK_FALSE(Parses("{\"s\":\"\xFF\"}"));
  CHECK_FALSE(Parses("{\"s\":\"\xED\xA0\x80\"}"));  // an encoded surrogate
  CHECK_FALSE(Parses("{\"s\":\"x\"}\xE2"));         // a lead byte at the very end
  // A non-ASCII body still refuses 0x1A-0x1F.
  CHECK_FALSE(Parses("{\"s\":\"\xC3\xA9" + std::string(20, 'y') + "\x1C\"}"));
}

}  // namespace
}  // namespace ddbd
