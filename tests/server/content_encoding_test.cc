// Compressed request bodies and answers below the socket (issue 22).
#include "server/content_encoding.h"

#include <catch2/catch.hpp>
#include <string>

namespace ddbd {
namespace {

TEST_CASE("Compressed answers decode to what was compressed", "[encoding]") {
  std::string body;
  for (int i = 0; i < 2000; ++i) body += "{\"pk\":{\"S\":\"" + std::to_string(i) + "\"}},";
  for (ResponseEncoding encoding : {ResponseEncoding::kGzip, ResponseEncoding::kDeflate}) {
    const std::string compressed = Compress(body, encoding);
    REQUIRE(!compressed.empty());
    CHECK(compressed.size() < body.size() / 3);
    std::string decoded;
    CHECK(DecodeBody(EncodingName(encoding), compressed, 1 << 20, decoded) ==
          BodyDecoding::kDecoded);
    CHECK(decoded == body);
    CHECK(DecodeBody(EncodingName(encoding), compressed, body.size() - 1, decoded) ==
          BodyDecoding::kTooLarge);
  }
  // Two gzip members are one body.
  const std::string first = Compress(body.substr(0, 100), ResponseEncoding::kGzip);
  const std::string second = Compress(body.substr(100), ResponseEncoding::kGzip);
  std::string decoded;
  CHECK(DecodeBody("gzip", first + second, 1 << 20, decoded) == BodyDecoding::kDecoded);
  CHECK(decoded == body);
}

TEST_CASE("Unknown encodings and broken bodies are told apart", "[encoding]") {
  std::string out;
  CHECK(DecodeBody("", "{}", 100, out) == BodyDecoding::kPlain);
  CHECK(DecodeBody(" Identity ", "{}", 100, out) == BodyDecoding::kPlain);
  CHECK(DecodeBody("br", "{}", 100, out) == BodyDecoding::kUnsupported);
  CHECK(DecodeBody("gzip", "{}", 100, out) == BodyDecoding::kBroken);
  const std::string compressed = Compress(std::string(5000, 'a'), ResponseEncoding::kGzip);
  CHECK(DecodeBody("gzip", compressed.substr(0, compressed.size() - 3), 1 << 20, out) ==
        BodyDecoding::kBroken);
  CHECK(DecodeBody("gzip", "", 100, out) == BodyDecoding::kBroken);
}

TEST_CASE("Accept-Encoding picks gzip, then deflate, and honours q=0", "[encoding]") {
  CHECK(ChooseResponseEncoding("") == ResponseEncoding::kNone);
  CHECK(ChooseResponseEncoding("identity") == ResponseEncoding::kNone);
  CHECK(ChooseResponseEncoding("gzip, deflate") == ResponseEncoding::kGzip);
  CHECK(ChooseResponseEncoding("deflate, GZIP;q=0.5") == ResponseEncoding::kGzip);
  CHECK(ChooseResponseEncoding("deflate") == ResponseEncoding::kDeflate);
  CHECK(ChooseResponseEncoding("gzip;q=0, deflate") == ResponseEncoding::kDeflate);
  CHECK(ChooseResponseEncoding("gzip; q=0.0") == ResponseEncoding::kNone);
  CHECK(ChooseResponseEncoding("*") == ResponseEncoding::kGzip);
}

}  // namespace
}  // namespace ddbd
