#include "server/response_head.h"

#include <catch2/catch.hpp>
#include <regex>
#include <set>
#include <string>

#include "server/request_id.h"

namespace ddbd {
namespace {

TEST_CASE("An answer's head: the status line, the headers, then DynamoDB's own") {
  const std::string head =
      ResponseHead(200, "OK", 11,
                   {{"Content-Type", "application/x-amz-json-1.0"},
                    {"Access-Control-Allow-Headers", "x-a\r\nInjected: yes\nx-b"}},
                   42, true);
  CHECK(
      head.starts_with("HTTP/1.1 200 OK\r\nContent-Type: application/x-amz-json-1.0\r\n"
                       "Access-Control-Allow-Headers: x-aInjected: yesx-b\r\nDate: "));
  CHECK(head.find("\r\nInjected") == std::string::npos);  // a line break never splits it
  CHECK(head.ends_with(" GMT\r\nServer: Server\r\nContent-Length: 42\r\n\r\n"));
  CHECK(ResponseHead(400, "Bad Request", 11, {}, 0, false)
            .ends_with("Content-Length: 0\r\nConnection: close\r\n\r\n"));
  CHECK(ResponseHead(200, "OK", 10, {}, 7, true)
            .ends_with("Content-Length: 7\r\nConnection: keep-alive\r\n\r\n"));
}

TEST_CASE("Request ids: 52 characters of [A-Z0-9], never the same twice") {
  const std::regex shape("[A-Z0-9]{52}");
  std::set<std::string> seen;
  std::set<char> characters;
  for (int i = 0; i < 10'000; ++i) {
    const std::string id = NewRequestId();
    REQUIRE(std::regex_match(id, shape));
    characters.insert(id.begin(), id.end());
    seen.insert(id);
  }
  CHECK(seen.size() == 10'000);
  CHECK(characters.size() == 36);  // every character turns up
}

}  // namespace
}  // namespace ddbd
