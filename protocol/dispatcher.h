// The protocol layer's only public entry point: one DynamoDB JSON request in, one response out.
// RapidJSON stays private to protocol/; the server sees strings and status codes only.
//
// Thread safety: Handle may be called concurrently; the Dispatcher holds no mutable state.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/api/statistics.h"
#include "engine/error.h"

namespace ddbd {

class Engine;

struct RequestInfo {
  bool has_authorization = false;  // an `Authorization: AWS4-...` header or a presigned query
  // The server's check of it (server/authenticator.h): a malformed header, and with signature
  // verification an unknown key, a wrong signature or a date out of the window, refuse the
  // request where DynamoDB checks authentication (after the body's syntax and the target).
  Status authentication = Ok{};
  // The header itself, valid until the request is answered: taken apart
  // (protocol/authorization.h) only by what needs its parts, namespaces today.
  std::string_view authorization = {};
  std::string_view host = {};  // the Host header (DescribeEndpoints answers with it)
};

struct DispatchResult {
  int http_status = 200;
  std::string body;
};

// Finishes one request with its answer. Called exactly once, on any thread.
using DispatchDone = std::function<void(DispatchResult)>;

// What the server calls for each DynamoDB request. An interface so the server's own handling
// (headers, the catch-all for unexpected exceptions) can be tested with a stand-in.
class RequestHandler {
 public:
  virtual ~RequestHandler() = default;
  // `target` is the X-Amz-Target header, e.g. "DynamoDB_20120810.CreateTable".
  virtual DispatchResult Handle(std::string_view target, std::string_view body,
                                const RequestInfo& info) const = 0;
  // Answers through `done`, at once or later: a request that must wait (a group commit's
  // fsync, a transaction's locks) finishes from whichever thread ends the wait, and the I/O
  // thread that read it goes on serving other connections meanwhile. `target` stays valid until
  // `done` is called; `body` is the handler's own (the dispatcher parses it in place and frees it
  // once the request is read, so a 16 MB request is not held twice). A handler that answers
  // later keeps a copy of `done`. May throw only before calling `done`. By default answers at
  // once with Handle.
  virtual void HandleAsync(std::string_view target, std::string body, const RequestInfo& info,
                           const DispatchDone& done) const {
    done(Handle(target, body, info));
  }
  // The figures of each database it serves, for /metrics: (namespace, figures), the namespace
  // "access key id/region" or empty for the one database. None by default.
  using NamedStatistics = std::vector<std::pair<std::string, EngineStatistics>>;
  virtual NamedStatistics Statistics() const { return {}; }
  // Why it cannot take writes now (a data directory whose log cannot be written: a full disk, an
  // I/O error), for GET /_ddbd/health; empty when healthy.
  virtual std::string Unhealthy() const { return {}; }
  // Deletes every item whose Time to Live has passed, in every database it serves, now rather
  // than at the sweeper's next turn (POST /_ddbd/ttl/sweep). Returns how many. None by default.
  virtual size_t SweepExpiredItems() const { return 0; }
  // What Contributor Insights reports for `table_name`'s heaviest `top` keys per rule, in the
  // database `info` names (protocol/insights_report.h), for GET
  // /_ddbd/contributor-insights/<table>; the caller checked the signature. A DynamoDB error
  // answer for a table that is not there. None by default.
  virtual DispatchResult ContributorInsightsReport(std::string_view table_name, size_t top,
                                                   const RequestInfo& info) const {
    (void)table_name, (void)top, (void)info;
    return {404, "{}"};
  }
};

class Dispatcher final : public RequestHandler {
 public:
  // `engine` must outlive the dispatcher.
  // Hands `engine` the item formats its exports write (protocol/item_lines.h).
  explicit Dispatcher(Engine& engine);

  // Never throws for client input: every failure becomes a DynamoDB error body.
  DispatchResult Handle(std::string_view target, std::string_view body,
                        const RequestInfo& info) const override;
  // An operation that may wait (a held transaction) answers from the thread that ends the wait;
  // the others answer at once.
  void HandleAsync(std::string_view target, std::string body, const RequestInfo& info,
                   const DispatchDone& done) const override;

  NamedStatistics Statistics() const override;
  std::string Unhealthy() const override;
  size_t SweepExpiredItems() const override;
  DispatchResult ContributorInsightsReport(std::string_view table_name, size_t top,
                                           const RequestInfo& info) const override;

  // DynamoDB's InternalServerError (HTTP 500), for failures outside any handler's control.
  static DispatchResult InternalServerError();

 private:
  Engine& engine_;
};

}  // namespace ddbd
