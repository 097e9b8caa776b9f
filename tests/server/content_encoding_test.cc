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

TEST_CASE("A gzip body is inflated into a buffer of its size, not of the next power of two",
          "[encoding]") {
  // 1.1 MB: growing from 64 KB by doubling ended in a 2 MB buffer (and held 3 MB while copying).
  std::string body;
  for (int i = 0; body.size() < 1'100'000; ++i) body += std::to_string(i * 7919) + ",";
  const std::string compressed = Compress(body, ResponseEncoding::kGzip);
  std::string decoded;
  REQUIRE(DecodeBody("gzip", compressed, 16 << 20, decoded) == BodyDecoding::kDecoded);
  CHECK(decoded == body);
  CHECK(decoded.capacity() <= body.size() + 16);
  // A trailer that understates the size only costs growing the buffer; one that overstates it
  // is held to the body limit.
  std::string understated = compressed;
  understated[understated.size() - 4] = 1;
  understated[understated.size() - 3] = understated[understated.size() - 2] =
      understated[understated.size() - 1] = 0;
  CHECK(DecodeBody("gzip", understated, 16 << 20, decoded) == BodyDecoding::kBroken);
  std::string overstated = compressed;
  overstated[overstated.size() - 1] = static_cast<char>(0x7f);
  std::string held;
  CHECK(DecodeBody("gzip", overstated, 2 << 20, held) == BodyDecoding::kBroken);
  CHECK(held.capacity() <= (2 << 20) + 16);
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
  // The higher q wins (this held gzip whatever its q until AWS's rules were measured).
  CHECK(ChooseResponseEncoding("deflate, GZIP;q=0.5") == ResponseEncoding::kDeflate);
  CHECK(ChooseResponseEncoding("deflate") == ResponseEncoding::kDeflate);
  CHECK(ChooseResponseEncoding("gzip;q=0, deflate") == ResponseEncoding::kDeflate);
  CHECK(ChooseResponseEncoding("gzip; q=0.0") == ResponseEncoding::kNone);
  CHECK(ChooseResponseEncoding("*") == ResponseEncoding::kGzip);
}

// Measured against AWS (../shared/behaviours-to-match.md A4): the header's value and the coding
// AWS answers with.
TEST_CASE("Accept-Encoding as AWS reads it", "[encoding]") {
  const auto none = ResponseEncoding::kNone;
  const auto gzip = ResponseEncoding::kGzip;
  const auto deflate = ResponseEncoding::kDeflate;
  const std::pair<const char*, ResponseEncoding> cases[] = {
      {"x-gzip", none},
      {"br, identity, deflate, gzip", deflate},
      {"*, deflate", deflate},
      {"*, gzip;q=0.5", deflate},
      {"deflate;q=0.5, gzip;q=0.2", deflate},
      {"deflate;q=0.5,gzip;q=0.x", gzip},
      {"deflate;q=0.5,gzip;q=0. x", gzip},
      {"gzip;q= 0;q=1", none},
      {"gzip; q=0;q=1", none},
      {"gzip;nq=0;q=1", none},
      {"gzip;q =0", gzip},
      {"gzip;q=1;q=0.2", gzip},
      {"gzip;q=0.", none},
      {"deflate;q=2, gzip", deflate},
      {"gzip;q=0.3, gzip;q=0.9, deflate;q=0.5", gzip},
      {"br, zstd, compress, \"gzip\", gzip br, gzip:q=1", none},
      {",, DEFLATE ,", deflate},
      {"identity, *", gzip},
  };
  for (const auto& [header, expected] : cases) {
    INFO(header);
    CHECK(ChooseResponseEncoding(header) == expected);
  }
}

}  // namespace
}  // namespace ddbd
