#include "server/response_head.h"

#include <catch2/catch.hpp>
#include <regex>
#include <set>
#include <string>

#include "server/request_id.h"

namespace ddbd {
namespace {

TEST_CASE("An answer's head: the status line, the headers, then DynamoDB's own") {
  HttpResponse answer;
  answer.headers = {{"Access-Control-Allow-Origin", "*"},
                    {"Access-Control-Allow-Headers", "x-a\r\nInjected: yes\nx-b"}};
  answer.content_type = "application/x-amz-json-1.0";
  answer.sends_request_id = true;
  answer.request_id = NewRequestId();
  answer.content_encoding = "gzip";
  answer.crc32 = 4294967295u;
  const std::string head = ResponseHead(answer, "OK", 11, 42, true);
  CHECK(head.starts_with(
      "HTTP/1.1 200 OK\r\nAccess-Control-Allow-Origin: *\r\n"
      "Access-Control-Allow-Headers: x-aInjected: yesx-b\r\n"
      "Content-Type: application/x-amz-json-1.0\r\nx-amzn-RequestId: " +
      answer.request_id + "\r\nContent-Encoding: gzip\r\nx-amz-crc32: 4294967295\r\nDate: "));
  CHECK(head.find("\r\nInjected") == std::string::npos);  // a line break never splits it
  CHECK(head.ends_with(" GMT\r\nServer: Server\r\nContent-Length: 42\r\n\r\n"));
  // Only what is set: a checksum of 0 is sent, an empty type or encoding and no id are not.
  HttpResponse bare;
  bare.status = 400;
  bare.crc32 = 0;
  const std::string refusal = ResponseHead(bare, "Bad Request", 11, 0, false);
  CHECK(refusal.starts_with("HTTP/1.1 400 Bad Request\r\nx-amz-crc32: 0\r\nDate: "));
  CHECK(refusal.ends_with("Content-Length: 0\r\nConnection: close\r\n\r\n"));
  CHECK(ResponseHead(HttpResponse{}, "OK", 10, 7, true)
            .ends_with("Content-Length: 7\r\nConnection: keep-alive\r\n\r\n"));
  CHECK(ResponseHead(HttpResponse{}, "OK", 10, 7, true).starts_with("HTTP/1.0 200 OK\r\nDate: "));
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
  // In place, as an answer slot draws its ids: the whole string replaced, whatever it held.
  std::string slot(100, '!');
  AssignRequestId(slot);
  CHECK(std::regex_match(slot, shape));
  const std::string first = slot;
  AssignRequestId(slot);
  CHECK(std::regex_match(slot, shape));
  CHECK(slot != first);
}

}  // namespace
}  // namespace ddbd
