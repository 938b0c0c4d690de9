// The routes on a socket, by cpp-httplib (Debian's libcpp-httplib): requests converted to
// HttpRequest and answered by Routes::handle, bodies over the limit refused with 413 before
// they are read, and a stop on SIGTERM or SIGINT that finishes what is in flight.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "routes.h"

namespace attend::server {

struct ListenSettings {
  std::string host = "127.0.0.1";
  int port = 5000;                        // 0: any free port (on_listening says which)
  size_t max_body_bytes = 1 << 20;        // a larger body is 413
  int http_threads = 64;                  // connections served at once (each waits for its batch)
};

// Blocks SIGTERM and SIGINT in the calling thread and the threads it starts afterwards, so that
// serve_http's waiting thread receives them. Call before starting any thread.
void block_termination_signals();

// Serves until SIGTERM or SIGINT (block_termination_signals first), then: /health answers 503
// and new work is refused, the listening socket closes, and the requests in flight are answered
// before it returns. on_listening is given the port once it is bound. Throws attend::Error(io)
// when the address cannot be bound.
void serve_http(Routes& routes, const ListenSettings& settings, const std::function<void(int port)>& on_listening);

}  // namespace attend::server
