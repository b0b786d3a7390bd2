#include "planner/service.h"

#include <httplib.h>

#include <chrono>
#include <mutex>
#include <ostream>
#include <thread>

#include "planner/json_output.h"
#include "planner/request_decoder.h"

namespace perfplan::planner {
namespace {

HttpReply Error(const ApiError& e) { return {e.http_status, ToJson(e)}; }

HttpReply FromStatus(const Status& s) { return Error(ApiErrorFromStatus(s)); }

// Resolves the profile of a call: from the catalog by name, or parsed from the inline object.
const profiles::ProfileDocument* ResolveProfile(const Catalog& catalog,
                                                const std::string& application,
                                                const std::optional<std::string>& inline_profile,
                                                profiles::ProfileDocument* storage,
                                                std::optional<ApiError>* error) {
  if (inline_profile) {
    profiles::Loaded<profiles::ProfileDocument> doc =
        profiles::ParseProfile(*inline_profile, "request.profile");
    if (!doc.ok()) {
      const profiles::Problem& p = doc.problems.front();
      *error = ApiError{400, "invalid_field", profiles::FormatProblem(p),
                        p.field.empty() ? "profile" : "profile." + p.field};
      return nullptr;
    }
    *storage = std::move(doc.value);
    return storage;
  }
  const profiles::ProfileDocument* doc = catalog.FindProfile(application);
  if (!doc) {
    std::string message = "application: no profile named \"" + application + "\"";
    std::vector<std::string> names = catalog.Applications();
    const std::string suggestion =
        profiles::SuggestClosest(application, {names.begin(), names.end()});
    if (!suggestion.empty()) message += "; did you mean \"" + suggestion + "\"?";
    *error = ApiError{404, "not_found", message, "application"};
  }
  return doc;
}

HttpReply Predict(const Catalog& catalog, const std::string& body) {
  PredictCall call;
  if (auto e = DecodePredictCall(body, &call)) return Error(*e);
  profiles::ProfileDocument storage;
  std::optional<ApiError> error;
  const profiles::ProfileDocument* doc =
      ResolveProfile(catalog, call.application, call.inline_profile, &storage, &error);
  if (!doc) return Error(*error);
  if (!call.request.site.empty() && !catalog.topology()) {
    return Error(
        {400, "invalid_field", "site: the service was started without a topology", "site"});
  }
  Result<PredictAnswer> answer = AnswerPredict(*doc, catalog.topology(), call.request);
  if (!answer.ok()) return FromStatus(answer.status());
  return {200, ToJson(answer.value())};
}

HttpReply Select(const Catalog& catalog, const std::string& body) {
  SelectCall call;
  if (auto e = DecodeSelectCall(body, &call)) return Error(*e);
  if (!catalog.topology()) {
    return Error({404, "not_found", "the service was started without a topology", ""});
  }
  profiles::ProfileDocument storage;
  std::optional<ApiError> error;
  const profiles::ProfileDocument* doc =
      ResolveProfile(catalog, call.application, call.inline_profile, &storage, &error);
  if (!doc) return Error(*error);
  Result<SelectAnswer> answer = AnswerSelect(*doc, *catalog.topology(), call.request);
  if (!answer.ok()) return FromStatus(answer.status());
  return {200, ToJson(answer.value())};
}

std::string HealthJson(const Catalog& catalog) {
  std::string apps;
  for (const std::string& a : catalog.Applications()) {
    apps += (apps.empty() ? "\"" : ", \"") + a + "\"";
  }
  return std::string("{\"status\": \"ok\", \"applications\": [") + apps +
         "], \"topology\": " + (catalog.topology() ? "true" : "false") + "}\n";
}

}  // namespace

Status ServiceOptions::Validate() const {
  if (host.empty()) return Status::InvalidArgument("host: must not be empty");
  if (port < 0 || port > 65535) {
    return Status::InvalidArgument("port: must be 0..65535, got " + std::to_string(port));
  }
  if (max_body_bytes == 0) return Status::InvalidArgument("max_body_bytes: must be > 0, got 0");
  if (read_timeout_seconds <= 0 || write_timeout_seconds <= 0) {
    return Status::InvalidArgument("read_timeout_seconds and write_timeout_seconds: must be > 0");
  }
  if (threads < 1) {
    return Status::InvalidArgument("threads: must be >= 1, got " + std::to_string(threads));
  }
  return Status::Ok();
}

bool ConstantTimeEquals(const std::string& a, const std::string& b) {
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  const std::size_t n = std::max(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
    const unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
    diff |= x ^ y;
  }
  return diff == 0;
}

HttpReply HandleRequest(const Catalog& catalog, const ServiceOptions& options,
                        const std::string& method, const std::string& path,
                        const std::string& authorization, const std::string& body) {
  const bool health = path == "/v1/health";
  if (!options.token.empty() && !health) {
    const std::string prefix = "Bearer ";
    const bool ok = authorization.rfind(prefix, 0) == 0 &&
                    ConstantTimeEquals(authorization.substr(prefix.size()), options.token);
    if (!ok) {
      return Error({401, "unauthorized",
                    authorization.empty() ? "missing \"Authorization: Bearer <token>\" header"
                                          : "wrong bearer token",
                    ""});
    }
  }
  struct Route {
    const char* method;
    const char* path;
  };
  static constexpr Route kRoutes[] = {
      {"GET", "/v1/health"}, {"POST", "/v1/predict"}, {"POST", "/v1/select"}};
  for (const Route& r : kRoutes) {
    if (path != r.path) continue;
    if (method != r.method) {
      return Error(
          {405, "method_not_allowed", path + " accepts " + r.method + ", not " + method, ""});
    }
    if (health) return {200, HealthJson(catalog)};
    if (path == "/v1/predict") return Predict(catalog, body);
    return Select(catalog, body);
  }
  return Error({404, "not_found", "no endpoint " + path + "; see docs/openapi.json", ""});
}

struct Service::Impl {
  Catalog catalog;
  ServiceOptions options;
  std::ostream* access_log = nullptr;
  std::mutex log_mu;
  httplib::Server server;
  std::thread thread;
  int port = 0;
  std::mutex stop_mu;

  void Log(const httplib::Request& req, const httplib::Response& res,
           std::chrono::steady_clock::time_point start) {
    if (!access_log) return;
    const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                            std::chrono::steady_clock::now() - start)
                            .count();
    std::lock_guard<std::mutex> lock(log_mu);
    *access_log << req.remote_addr << " \"" << req.method << " " << req.path << "\" " << res.status
                << " " << res.body.size() << " " << micros << "us\n"
                << std::flush;
  }

  void Serve(const httplib::Request& req, httplib::Response& res) {
    const auto start = std::chrono::steady_clock::now();
    HttpReply reply = HandleRequest(catalog, options, req.method, req.path,
                                    req.get_header_value("Authorization"), req.body);
    res.status = reply.status;
    res.set_content(reply.body, "application/json");
    Log(req, res, start);
  }
};

Service::Service(Catalog catalog, ServiceOptions options, std::ostream* access_log)
    : impl_(std::make_unique<Impl>()) {
  impl_->catalog = std::move(catalog);
  impl_->options = std::move(options);
  impl_->access_log = access_log;
}

Service::~Service() { Stop(); }

Status Service::Start() {
  if (Status s = impl_->options.Validate(); !s.ok()) return s;
  Impl* impl = impl_.get();
  httplib::Server& server = impl->server;
  const int threads = impl->options.threads;
  server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  server.set_payload_max_length(impl->options.max_body_bytes);
  server.set_read_timeout(impl->options.read_timeout_seconds, 0);
  server.set_write_timeout(impl->options.write_timeout_seconds, 0);
  auto handler = [impl](const httplib::Request& req, httplib::Response& res) {
    impl->Serve(req, res);
  };
  server.set_keep_alive_max_count(10000);
  // Answers are small and written in pieces: without TCP_NODELAY, Nagle plus delayed ACKs add
  // ~40 ms to every keep-alive request.
  server.set_tcp_nodelay(true);
  // httplib's default adds SO_REUSEPORT, which lets a second server bind the same port and
  // silently take half the traffic; keep only SO_REUSEADDR (quick restarts).
  server.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, reinterpret_cast<const void*>(&yes), sizeof yes);
  });
  // Every method and path goes through HandleRequest, which owns routing and its errors.
  const std::string any_path = ".*";
  server.Get(any_path, handler);
  server.Post(any_path, handler);
  server.Put(any_path, handler);
  server.Delete(any_path, handler);
  server.Patch(any_path, handler);
  // Errors httplib raises itself (oversized body, malformed HTTP) get a JSON body too.
  server.set_error_handler([impl](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    ApiError e{res.status, res.status == 413 ? "payload_too_large" : "invalid_request",
               res.status == 413
                   ? "the request body is larger than " +
                         std::to_string(impl->options.max_body_bytes) + " bytes"
                   : "the request could not be read (HTTP " + std::to_string(res.status) + ")",
               ""};
    res.set_content(ToJson(e), "application/json");
    impl->Log(req, res, std::chrono::steady_clock::now());
  });
  server.set_exception_handler([impl](const httplib::Request& req, httplib::Response& res,
                                      std::exception_ptr) {
    res.status = 500;
    res.set_content(ToJson(ApiError{500, "internal", "internal error", ""}), "application/json");
    impl->Log(req, res, std::chrono::steady_clock::now());
  });

  if (impl->options.port == 0) {
    impl->port = server.bind_to_any_port(impl->options.host);
  } else {
    impl->port =
        server.bind_to_port(impl->options.host, impl->options.port) ? impl->options.port : -1;
  }
  if (impl->port <= 0) {
    return Status::Failed("cannot listen on " + impl->options.host + ":" +
                          std::to_string(impl->options.port) +
                          " (address in use, or not an address of this machine)");
  }
  impl->thread = std::thread([impl] { impl->server.listen_after_bind(); });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!server.is_running()) {
    if (std::chrono::steady_clock::now() > deadline) {
      Stop();
      return Status::Failed("the server did not start listening within 5 s");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return Status::Ok();
}

void Service::Stop() {
  std::lock_guard<std::mutex> lock(impl_->stop_mu);
  if (impl_->server.is_running()) impl_->server.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
}

int Service::port() const { return impl_->port; }

}  // namespace perfplan::planner
