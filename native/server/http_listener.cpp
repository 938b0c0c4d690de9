#include "http_listener.h"

#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>

#include <atomic>
#include <cctype>
#include <chrono>
#include <thread>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "attend/error.h"

namespace attend::server {
namespace {

sigset_t termination_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  return set;
}

std::string lowercase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

HttpRequest exchange_of(const httplib::Request& request) {
  HttpRequest converted;
  converted.method = request.method;
  converted.path = request.path;
  converted.body = request.body;
  for (const auto& [name, value] : request.headers) converted.headers.emplace(lowercase(name), value);
  for (const auto& [name, value] : request.params) converted.form.emplace_back(name, value);
  for (const auto& [name, part] : request.files) converted.form.emplace_back(name, part.content);
  return converted;
}

// httplib listens with a backlog of 5 connections: more clients connecting at once have their
// SYNs dropped and retried a second later (p99 of 1 s at 64 clients). listen() again widens it.
class Server : public httplib::Server {
 public:
  void widen_backlog() { ::listen(svr_sock_, SOMAXCONN); }
};

void write_out(const HttpResponse& answer, httplib::Response& response) {
  response.status = answer.status;
  for (const auto& [name, value] : answer.headers) response.set_header(name, value);
  if (!answer.content_type.empty()) response.set_content(answer.body, answer.content_type);
}

}  // namespace

void block_termination_signals() {
  const sigset_t set = termination_signals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

void serve_http(Routes& routes, const ListenSettings& settings, const std::function<void(int port)>& on_listening) {
  Server server;
  const size_t threads = static_cast<size_t>(settings.http_threads);
  server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  server.set_payload_max_length(settings.max_body_bytes);
  server.set_keep_alive_max_count(1000);
  server.set_tcp_nodelay(true);  // an answer is one small write: no waiting for the client's delayed ACK
  const auto answer = [&routes](const httplib::Request& request, httplib::Response& response) {
    write_out(routes.handle(exchange_of(request)), response);
  };
  const httplib::Server::Handler handler = answer;
  server.Get(".*", handler).Post(".*", handler).Put(".*", handler).Patch(".*", handler).Delete(".*", handler);
  server.Options(".*", handler);
  // httplib's own refusals (a body over the limit: 413; a request it cannot parse: 400) get
  // LibreTranslate's JSON error too; the routes' answers already have a body.
  server.set_error_handler(httplib::Server::HandlerWithResponse([&settings](const httplib::Request&, httplib::Response& response) {
    if (!response.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
    const std::string message = response.status == 413
                                    ? "the request body is larger than " + std::to_string(settings.max_body_bytes) + " bytes"
                                    : "the request could not be read (HTTP status " + std::to_string(response.status) + ")";
    response.set_content(nlohmann::json{{"error", message}}.dump(), "application/json");
    return httplib::Server::HandlerResponse::Handled;
  }));

  const int port = settings.port == 0 ? server.bind_to_any_port(settings.host) : settings.port;
  if (port < 0 || (settings.port != 0 && !server.bind_to_port(settings.host, port))) {
    throw Error(ErrorCode::io, "cannot listen on " + settings.host + ":" + std::to_string(settings.port));
  }
  server.widen_backlog();
  std::atomic<bool> signalled{false}, listen_returned{false};
  std::thread stopper([&] {
    const sigset_t set = termination_signals();
    int signal = 0;
    sigwait(&set, &signal);
    signalled = true;
    routes.start_draining();
    // httplib's stop() does nothing before listen_after_bind has started: a signal that came
    // as soon as the port was printed waits for it.
    while (!server.is_running() && !listen_returned) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    server.stop();  // closes the socket; listen_after_bind returns once the requests in flight are answered
  });
  on_listening(port);
  server.listen_after_bind();
  listen_returned = true;
  // listen_after_bind also returns on a socket failure: wake the stopper so it can be joined.
  if (!signalled) pthread_kill(stopper.native_handle(), SIGTERM);
  stopper.join();
}

}  // namespace attend::server
