#include "engine/model/number.h"

#include <catch2/catch.hpp>
#include <optional>
#include <random>
#include <string>

namespace ddbd {
namespace {

std::string Canonical(const std::string& text) { return Number::Parse(text).value().ToString(); }

std::string NumberErrorOf(const std::string& text, Number::Layer layer = Number::Layer::kOlder) {
  auto parsed = Number::Parse(text, layer);
  return parsed.ok() ? "" : parsed.error().message();
}

TEST_CASE("Numbers come back in DynamoDB's canonical text") {
  CHECK(Canonical("1.50") == "1.5");
  CHECK(Canonical("0100") == "100");
  CHECK(Canonical("1E2") == "100");
  CHECK(Canonical("1e-5") == "0.00001");
  CHECK(Canonical("-0") == "0");
  CHECK(Canonical("0.000") == "0");
  CHECK(Canonical("+7") == "7");
  CHECK(Canonical(".5") == "0.5");
  CHECK(Canonical("5.") == "5");
  CHECK(Canonical("-12.3400e1") == "-123.4");
  CHECK(Canonical("123456789012345678901234567890.12345678") ==
        "123456789012345678901234567890.12345678");
  CHECK(Canonical("1E125") == "1" + std::string(125, '0'));
  CHECK(Canonical("1E-130") == "0." + std::string(129, '0') + "1");
  CHECK(Canonical("9.9999999999999999999999999999999999999E+125") ==
        "99999999999999999999999999999999999999" + std::string(88, '0'));
}

TEST_CASE("Numbers outside DynamoDB's limits are refused with its messages") {
  CHECK(NumberErrorOf("") == "The parameter cannot be converted to a numeric value");
  CHECK(NumberErrorOf("abc") == "The parameter cannot be converted to a numeric value: abc");
  CHECK(NumberErrorOf("1.2.3") == "The parameter cannot be converted to a numeric value: 1.2.3");
  CHECK(NumberErrorOf("1e") == "The parameter cannot be converted to a numeric value: 1e");
  CHECK(NumberErrorOf(" 1") == "The parameter cannot be converted to a numeric value:  1");
  CHECK(NumberErrorOf("123456789012345678901234567890123456789") ==
        "Attempting to store more than 38 significant digits in a Number");
  CHECK(NumberErrorOf("1e126") ==
        "Number overflow. Attempting to store a number with magnitude larger than supported range");
  CHECK(NumberErrorOf("-1e-131") ==
        "Number underflow. Attempting to store a number with magnitude smaller than supported "
        "range");
  CHECK(NumberErrorOf("0e125") == "");
  CHECK(NumberErrorOf("0.0e126") ==
        "");  // zero's magnitude counts its written digits, as BigDecimal's
  CHECK(NumberErrorOf("12345678901234567890123456789012345678000000") ==
        "");  // trailing zeros are free
}

// ../shared/behaviours-to-match.md B2 and B3, recorded against AWS.
TEST_CASE("Exponents beyond 32 bits, zero's written exponent, and the two validation layers") {
  const std::string overflow =
      "Number overflow. Attempting to store a number with magnitude larger than supported range";
  const std::string underflow =
      "Number underflow. Attempting to store a number with magnitude smaller than supported range";
  const std::string not_numeric = "The parameter cannot be converted to a numeric value";
  for (const Number::Layer layer : {Number::Layer::kOlder, Number::Layer::kCurrent}) {
    CHECK(NumberErrorOf("1e9223372036854775808", layer) == not_numeric + ": 1e9223372036854775808");
    CHECK(NumberErrorOf("1e2147483648", layer) == not_numeric + ": 1e2147483648");
    CHECK(NumberErrorOf("1e-2147483648", layer) == not_numeric + ": 1e-2147483648");  // its scale
    CHECK(NumberErrorOf("0e999999999999", layer) == not_numeric + ": 0e999999999999");
    CHECK(NumberErrorOf("0e126", layer) == overflow);
    CHECK(NumberErrorOf("-0e-131", layer) == underflow);
    CHECK(NumberErrorOf("1e-2147483647", layer) == underflow);
  }
  // The older layer words an empty literal without ": " and computes magnitudes in 32 bits.
  CHECK(NumberErrorOf("", Number::Layer::kCurrent) == not_numeric + ": ");
  CHECK(NumberErrorOf("") == not_numeric);
  CHECK(NumberErrorOf("1e2147483647", Number::Layer::kCurrent) == overflow);
  CHECK(NumberErrorOf("1e2147483647") == underflow);
  CHECK(NumberErrorOf("1e2147483646", Number::Layer::kCurrent) == overflow);
  CHECK(NumberErrorOf("1e2147483646") == overflow);
}

TEST_CASE("Numbers compare by value") {
  CHECK(Number::Parse("1").value() == Number::Parse("1.0").value());
  CHECK(Number::Parse("-2").value().Compare(Number::Parse("1").value()) < 0);
  CHECK(Number::Parse("0.1").value().Compare(Number::Parse("0.12").value()) < 0);
  CHECK(Number::Parse("-0.1").value().Compare(Number::Parse("-0.12").value()) > 0);
  CHECK(Number::Parse("100").value().Compare(Number::Parse("99.999").value()) > 0);
}

std::string Sum(const std::string& a, const std::string& b) {
  auto sum = Number::Parse(a).value().Add(Number::Parse(b).value());
  return sum.ok() ? sum.value().ToString() : sum.error().message();
}

TEST_CASE("Addition and subtraction are exact, within DynamoDB's limits") {
  CHECK(Sum("1", "2") == "3");
  CHECK(Sum("0.1", "0.2") == "0.3");
  CHECK(Sum("-1.5", "1.5") == "0");
  CHECK(Sum("100", "-0.001") == "99.999");
  CHECK(Sum("-5", "3") == "-2");
  // Arithmetic that needs more than 38 digits is an overflow in DynamoDB's words (issue 15).
  CHECK(Sum("1E100", "1") ==
        "Number overflow. Attempting to store a number with magnitude larger than supported range");
  CHECK(Sum("1E50", "-1") ==
        "Number overflow. Attempting to store a number with magnitude larger than supported range");
  CHECK(Sum("9E125", "9E125") ==
        "Number overflow. Attempting to store a number with magnitude larger than supported range");
  CHECK(Sum("12345678901234567890123456789012345678", "1") ==
        "12345678901234567890123456789012345679");
  CHECK(Number::Parse("10").value().Subtract(Number::Parse("0.5").value()).value().ToString() ==
        "9.5");
}

// Random decimals of assorted magnitudes, signs and lengths.
std::string RandomDecimal(std::mt19937_64& random) {
  std::uniform_int_distribution<int> digits(1, 38), digit(0, 9), exponent(-120, 120), coin(0, 3);
  std::string text = coin(random) == 0 ? "-" : "";
  const int count = digits(random);
  for (int i = 0; i < count; ++i) text += static_cast<char>('0' + digit(random));
  if (coin(random) != 0) text += "e" + std::to_string(exponent(random) % (coin(random) + 2) * 7);
  return text;
}

TEST_CASE("Byte order of encodings equals numeric order (property over random decimals)") {
  std::mt19937_64 random(20261122);
  for (int round = 0; round < 20000; ++round) {
    auto a = Number::Parse(RandomDecimal(random));
    auto b = Number::Parse(RandomDecimal(random));
    if (!a.ok() || !b.ok()) continue;
    std::string bytes_a;
    std::string bytes_b;
    a.value().AppendOrderedBytes(bytes_a);
    b.value().AppendOrderedBytes(bytes_b);
    const int by_value = a.value().Compare(b.value());
    const int by_bytes = bytes_a.compare(bytes_b);
    INFO(a.value().ToString() << " vs " << b.value().ToString());
    REQUIRE((by_value < 0) == (by_bytes < 0));
    REQUIRE((by_value == 0) == (by_bytes == 0));
    // Canonical text parses back to the same number.
    REQUIRE(Number::Parse(a.value().ToString()).value() == a.value());
  }
}

// A stored number's key bytes without a Parse (an index built from stored items): the same as
// Parse's, or none for text of another shape.
TEST_CASE("Key bytes from canonical text equal those of the parsed number") {
  auto parsed_bytes = [](std::string_view text) {
    std::string bytes;
    Number::Parse(text).value().AppendOrderedBytes(bytes);
    return bytes;
  };
  auto text_bytes = [](std::string_view text) -> std::optional<std::string> {
    std::string bytes = "k";
    if (!Number::AppendOrderedBytesOfText(bytes, text)) {
      CHECK(bytes == "k");  // nothing appended
      return std::nullopt;
    }
    return bytes.substr(1);
  };
  for (const char* text : {"0", "1", "-1", "7", "10", "100", "120", "0.5", "0.05", "-0.0001",
                           "123.45", "-123.45", "99999999999999999999999999999999999999"}) {
    const std::string canonical = Canonical(text);
    INFO(canonical);
    CHECK(text_bytes(canonical) == parsed_bytes(canonical));
  }
  CHECK(text_bytes(Canonical("1e125")).has_value());    // 126 digits, one significant
  CHECK(text_bytes(Canonical("-1e-130")).has_value());  // "-0.000...1"
  CHECK(text_bytes(Canonical("9.5e125")) == parsed_bytes("9.5e125"));
  std::mt19937_64 random(20261203);
  for (int round = 0; round < 20000; ++round) {
    auto number = Number::Parse(RandomDecimal(random));
    if (!number.ok()) continue;
    const std::string canonical = number.value().ToString();
    INFO(canonical);
    REQUIRE(text_bytes(canonical) == parsed_bytes(canonical));
  }
  // Other shapes are left to a Parse.
  for (const char* text :
       {"", "-", "-0", "00", "01", "0.", ".5", "1e5", "1.2.3", "+1", "1x", "0.0"}) {
    INFO(text);
    CHECK_FALSE(text_bytes(text).has_value());
  }
  CHECK_FALSE(text_bytes(std::string(39, '7')).has_value());  // 39 significant digits
  CHECK(text_bytes(std::string(38, '7') + "000") == parsed_bytes(std::string(38, '7') + "000"));
}

}  // namespace
}  // namespace ddbd
