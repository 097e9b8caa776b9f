// The floor for scripts/bench (issue 48): a minimal Beast server that does only what any HTTP
// server answering DynamoDB's protocol must do (read a keep-alive request with its body, find
// X-Amz-Target, write a fixed answer with DynamoDB's headers) on one I/O thread, as ddbd runs on
// one core. What ddbd spends per request beyond this server's CPU is what its own work costs:
// parsing and validating the request, the table, capacity, the answer's assembly.
//
// Answers are fixed per operation and shaped like ddbd's for scripts/bench's items (~200 bytes):
// GetItem an item, Query ten, writes an empty object; the calls the bench's preload makes
// (CreateTable, DescribeTable, BatchWriteItem) answer what lets it go on.
//
// Usage: floor_server [--port N] [--port-file FILE]   (port 0: any free port, written to FILE)
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <string>

namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

// The bench's item i = 4242 as ddbd answers it (attributes in the order it stores them).
std::string Item() {
  return R"({"pk":{"S":"p0000424"},"sk":{"S":"s02"},"name":{"S":"Name 4242"},)"
         R"("email":{"S":"user4242@example.com"},"n":{"N":"0"},"active":{"BOOL":true},"bio":{"S":")" +
         std::string(100, 'x') + R"("}})";
}

std::string QueryAnswer() {
  std::string items;
  for (int i = 0; i < 10; ++i) items += (i ? "," : "") + Item();
  return R"({"Count":10,"Items":[)" + items + R"(],"ScannedCount":10})";
}

// The body each X-Amz-Target gets; any other gets "{}".
const std::map<std::string, std::string, std::less<>>& Answers() {
  static const std::map<std::string, std::string, std::less<>> answers = {
      {"DynamoDB_20120810.GetItem", R"({"Item":)" + Item() + "}"},
      {"DynamoDB_20120810.Query", QueryAnswer()},
      {"DynamoDB_20120810.Scan", R"({"Count":0,"Items":[],"ScannedCount":0})"},
      {"DynamoDB_20120810.BatchWriteItem", R"({"UnprocessedItems":{}})"},
      {"DynamoDB_20120810.CreateTable", R"({"TableDescription":{"TableStatus":"ACTIVE"}})"},
      {"DynamoDB_20120810.DescribeTable", R"({"Table":{"TableStatus":"ACTIVE"}})"},
  };
  return answers;
}

// x-amz-crc32 of a body: computed once per fixed body, as the header DynamoDB sends.
uint32_t Crc32(const std::string& data) {
  uint32_t crc = 0xFFFFFFFFu;
  for (char byte : data) {
    crc ^= static_cast<unsigned char>(byte);
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

// Concrete executor types, as ddbd's sessions use (Asio's type-erased one costs a few percent).
using Executor = net::io_context::executor_type;
using Socket = tcp::socket::rebind_executor<Executor>::other;
using Stream = beast::basic_stream<tcp, Executor>;

struct Prepared {
  std::string body;
  std::string crc;
};

const Prepared& AnswerFor(std::string_view target) {
  static const auto prepared = [] {
    std::map<std::string, Prepared, std::less<>> all;
    for (const auto& [name, body] : Answers()) all[name] = {body, std::to_string(Crc32(body))};
    all[""] = {"{}", std::to_string(Crc32("{}"))};
    return all;
  }();
  auto found = prepared.find(target);
  return found == prepared.end() ? prepared.at("") : found->second;
}

class Session : public std::enable_shared_from_this<Session> {
 public:
  explicit Session(Socket socket) : stream_(std::move(socket)) {}

  void Read() {
    request_ = {};
    http::async_read(stream_, buffer_, request_,
                     [self = shared_from_this()](beast::error_code error, size_t) {
                       if (!error) self->Answer();
                     });
  }

 private:
  void Answer() {
    auto found = request_.find("X-Amz-Target");
    std::string_view name;
    if (found != request_.end()) name = {found->value().data(), found->value().size()};
    const Prepared& answer = AnswerFor(name);
    response_ = {};
    response_.result(http::status::ok);
    response_.version(11);
    response_.keep_alive(request_.keep_alive());
    response_.set("x-amzn-RequestId", "FLOOR0000000000000000000000000000000000000000000000000");
    response_.set("x-amz-crc32", answer.crc);
    response_.set(http::field::content_type, "application/x-amz-json-1.0");
    response_.body() = answer.body;
    response_.prepare_payload();
    http::async_write(stream_, response_,
                      [self = shared_from_this()](beast::error_code error, size_t) {
                        if (!error && self->response_.keep_alive()) self->Read();
                      });
  }

  Stream stream_;
  beast::flat_buffer buffer_;
  http::request<http::string_body> request_;
  http::response<http::string_body> response_;
};

void Accept(tcp::acceptor& acceptor, Executor executor) {
  acceptor.async_accept(executor, [&acceptor, executor](beast::error_code error, Socket socket) {
    if (!error) {
      socket.set_option(tcp::no_delay(true));
      std::make_shared<Session>(std::move(socket))->Read();
    }
    Accept(acceptor, executor);
  });
}

}  // namespace

int main(int argc, char** argv) {
  unsigned short port = 8000;
  std::string port_file;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--port") == 0) {
      port = static_cast<unsigned short>(std::stoi(argv[i + 1]));
    } else if (std::strcmp(argv[i], "--port-file") == 0) {
      port_file = argv[i + 1];
    } else {
      std::cerr << "usage: floor_server [--port N] [--port-file FILE]\n";
      return 2;
    }
  }
  net::io_context context(1);
  tcp::acceptor acceptor(context, {net::ip::make_address("127.0.0.1"), port});
  if (!port_file.empty()) std::ofstream(port_file) << acceptor.local_endpoint().port() << "\n";
  Accept(acceptor, context.get_executor());
  context.run();
  return 0;
}
